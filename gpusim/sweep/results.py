"""A study's results folder: rows written as points complete, readable while the study runs.

Layout of ``-o results/``:
  points.jsonl       one JSON row per completed point, appended and flushed as it completes: the
                     record ``--resume`` reads, and what survives an interrupted study
  results.parquet    the table of every row (or ``results.csv`` without pyarrow, or with
                     ``--format csv``), rewritten from the record every few seconds and at the end
  study.yaml         the study as it was run; ``study.json`` its name, content hash and columns
  archs/HASH.yaml    the resolved architecture of every distinct ``arch_hash`` in the rows

A row holds ``point`` (its index in the grid), every varied key, ``status`` and ``error``, the
metrics, ``waves_per_simd``, ``limiter`` and how its timing was sampled (``sampled``,
``sample_method``, ``sample_error_pct``: gpusim.sweep.point.SAMPLE_COLUMNS; a program study's rows have
only these three, for its launches: gpusim.sweep.point.program_sampling_columns), ``arch_hash`` (a program row's: its GPUs' distinct architectures' hashes
joined with '+') and ``host_s`` (host seconds).
"""
from __future__ import annotations

import csv
import json
import time
from pathlib import Path
from typing import Iterable, Optional

from gpusim.sweep.point import FINAL_STATUSES, SAMPLE_COLUMNS
from gpusim.sweep.study import Study, StudyError, folder_name_problem

RECORD = "points.jsonl"
REFRESH_SECONDS = 3.0
DEFAULT_PARENT = "results"


def default_folder(study: Study) -> Path:
    """default_folder is ``results/<study name>`` under the working directory, for a sweep without ``-o``.

    The name comes from the study file, so it is checked again to be one plain folder name: the
    folder never lands outside ``results/``. (A folder given with ``-o`` is the user's own choice.)
    """
    problem = folder_name_problem(study.name)
    if problem:
        raise StudyError(f"study name {study.name!r} {problem}; give the results folder with -o")
    return Path(DEFAULT_PARENT) / study.name


def table_format(requested: str = "auto") -> str:
    """table_format resolves ``auto`` to ``parquet`` when pyarrow is importable, else ``csv``."""
    if requested not in ("auto", "parquet", "csv"):
        raise StudyError(f"--format must be auto, parquet or csv, not '{requested}'")
    if requested != "auto":
        if requested == "parquet" and not _has_pyarrow():
            raise StudyError("--format parquet needs pyarrow: pip install pyarrow (or use --format csv)")
        return requested
    return "parquet" if _has_pyarrow() else "csv"


def _has_pyarrow() -> bool:
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        return False
    return True


class ResultsFolder:
    """ResultsFolder owns one study's output folder: its record of rows and the table built from it.

    Opening a folder that already holds rows needs ``resume``; resuming needs the same study
    (same content hash). ``done`` holds the keys of points whose rows are final (see FINAL_STATUSES).
    """

    def __init__(self, folder, study: Study, resume: bool = False, fmt: str = "auto"):
        self.folder = Path(folder)
        self.study = study
        self.format = table_format(fmt)
        occupancy = [*SAMPLE_COLUMNS] if study.program else ["waves_per_simd", "limiter", *SAMPLE_COLUMNS]
        self.columns = ["point", *study.columns, "status", *study.metrics, *occupancy, "arch_hash", "host_s",
                        "error"]
        self.rows: dict = {}   # point key -> latest row
        self._last_refresh = 0.0
        self._open(resume)

    def _open(self, resume: bool) -> None:
        record = self.folder / RECORD
        meta_path = self.folder / "study.json"
        if self.folder.exists() and not self.folder.is_dir():
            raise StudyError(f"-o {self.folder}: exists and is not a folder")
        if record.exists() and record.stat().st_size > 0:
            if not resume:
                raise StudyError(f"{self.folder} already holds results; pass --resume to finish that study "
                                 "or choose another folder with -o")
            meta = _json_object(meta_path.read_text()) if meta_path.exists() else None
            meta = meta or {}   # unreadable: another study's, as far as anyone can tell
            if meta.get("hash") != self.study.hash():
                raise StudyError(f"{self.folder} holds the results of another study "
                                 f"('{meta.get('name', '?')}', hash {meta.get('hash', '?')}); this one's hash is "
                                 f"{self.study.hash()}: choose another folder with -o")
            for row in _record_rows(record):
                self.rows[row["_key"]] = row
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "archs").mkdir(exist_ok=True)
        if self.study.source:
            (self.folder / "study.yaml").write_text(self.study.source)
        meta_path.write_text(json.dumps({"name": self.study.name, "hash": self.study.hash(),
                                         "columns": self.columns, "varied": list(self.study.columns),
                                         "metrics": list(self.study.metrics)}, indent=2) + "\n")
        self._record = open(record, "a", encoding="utf-8")

    @property
    def done(self) -> set:
        """done are the keys of the points whose rows are final: a resumed study skips them."""
        return {key for key, row in self.rows.items() if row["status"] in FINAL_STATUSES}

    def add(self, point, outcome: dict, archs=()) -> dict:
        """add records the row of ``point`` (a Point) from run_point's ``outcome``, and the resolved
        architectures it ran on (``archs``, saved once per hash); returns the row."""
        row = {"point": point.index, **point.params, **outcome, "_key": point.key}
        self._record.write(json.dumps(row, default=str) + "\n")
        self._record.flush()
        self.rows[point.key] = row
        if row.get("arch_hash"):
            for arch in archs:
                self.save_arch(arch.hash()[:16], arch)
        if time.monotonic() - self._last_refresh > REFRESH_SECONDS:
            self.write_table()
        return row

    def save_arch(self, short_hash: str, arch) -> None:
        """save_arch writes the resolved architecture of ``short_hash`` once."""
        path = self.folder / "archs" / f"{short_hash}.yaml"
        if not path.exists():
            from gpusim.arch import format_arch
            path.write_text(format_arch(arch))

    def table_rows(self) -> list:
        """table_rows are the rows in grid order, with the table's columns."""
        ordered = sorted(self.rows.values(), key=lambda r: r["point"])
        return [{c: r.get(c) for c in self.columns} for r in ordered]

    def write_table(self) -> Path:
        """write_table rewrites the results table from every row so far; returns its path."""
        self._last_refresh = time.monotonic()
        rows = self.table_rows()
        if self.format == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq
            path = self.folder / "results.parquet"
            tmp = path.with_suffix(".parquet.tmp")
            pq.write_table(pa.Table.from_pylist(rows), tmp)
        else:
            path = self.folder / "results.csv"
            tmp = path.with_suffix(".csv.tmp")
            with open(tmp, "w", newline="") as f:
                writer = csv.DictWriter(f, fieldnames=self.columns)
                writer.writeheader()
                writer.writerows(rows)
        tmp.replace(path)   # a reader never sees half a table
        return path

    def close(self) -> Path:
        """close writes the final table and closes the record; returns the table's path."""
        path = self.write_table()
        self._record.close()
        return path


def read_results(folder) -> list:
    """read_results returns the rows of a results folder (its table, else its record) as dicts."""
    folder = Path(folder)
    if folder.is_file():
        return _read_table(folder)
    for name in ("results.parquet", "results.csv"):
        if (folder / name).exists():
            return _read_table(folder / name)
    if (folder / RECORD).exists():
        return _record_rows(folder / RECORD)
    raise StudyError(f"{folder}: no results here (expected results.parquet, results.csv or {RECORD})")


def _json_object(text: str) -> Optional[dict]:
    """_json_object is ``text`` parsed when it is one JSON object, else None."""
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _record_rows(record: Path) -> list:
    """_record_rows returns the rows of a points.jsonl record, in file order. A line that is not a row (cut
    short by an interruption, or edited: not an object with a text ``_key`` and ``status`` and an integer
    ``point``) is left out, so a resumed study runs its point again."""
    rows = []
    for line in record.read_text(encoding="utf-8", errors="replace").splitlines():
        row = _json_object(line) if line.strip() else None
        if (row is not None and isinstance(row.get("_key"), str) and isinstance(row.get("status"), str)
                and isinstance(row.get("point"), int) and not isinstance(row.get("point"), bool)):
            rows.append(row)
    return rows


def _read_table(path: Path) -> list:
    if path.suffix == ".parquet":
        import pyarrow
        import pyarrow.parquet as pq
        try:
            return pq.read_table(path).to_pylist()
        except (OSError, pyarrow.ArrowException) as err:
            raise StudyError(f"cannot read the results table {path}: {err}") from None
    with open(path, newline="") as f:
        return [{k: _BOOLEANS.get(v, v) if k in _BOOLEAN_COLUMNS else number_or_text(v) for k, v in row.items()}
                for row in csv.DictReader(f)]


_BOOLEAN_COLUMNS = ("sampled",)   # a CSV cell holds True / False as text; read them back as booleans
_BOOLEANS = {"True": True, "False": False, "": None}


def number_or_text(text: Optional[str]):
    """number_or_text reads ``text`` as an int or a float when it is one, else keeps it as text ('' and None:
    None): how CSV cells and ``--set`` values are read."""
    if text is None or text == "":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def summarize(rows: Iterable[dict]) -> dict:
    """summarize counts rows by status."""
    out: dict = {}
    for r in rows:
        out[r["status"]] = out.get(r["status"], 0) + 1
    return out
