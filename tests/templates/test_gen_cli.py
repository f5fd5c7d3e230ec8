"""`gpusim gen --list` names every template family and `gpusim gen FAMILY --help` explains each parameter.

Parametrised over the registry, so a new family is covered as soon as it registers.
"""
from __future__ import annotations

import pytest

from gpusim.cli import main
from gpusim.templates import templates

FAMILIES = sorted(templates())


def test_list_names_every_family_with_its_summary(capsys):
    assert main(["gen", "--list"]) == 0
    out = capsys.readouterr().out
    for name, t in templates().items():
        assert name in out and t.summary.split()[0] in out, name


@pytest.mark.parametrize("family", FAMILIES)
def test_help_explains_every_parameter_and_its_default(family, capsys):
    with pytest.raises(SystemExit) as info:
        main(["gen", family, "--help"])
    assert info.value.code == 0
    text = capsys.readouterr().out
    words = " ".join(text.split())
    about = " ".join(templates()[family].about.split()[:8])
    assert about and about in words  # the family's explanation, not only its flags
    for p in templates()[family].params:
        assert f"--{p.name}" in text, p.name
        if p.default is not None and p.kind != "bool":
            assert f"(default: {p.default})" in words, p.name
        for choice in p.choices or ():
            assert str(choice) in text, (p.name, choice)


INT_PARAMS = [(f, p.name, p.minimum) for f in FAMILIES for p in templates()[f].params if p.kind == "int"]


@pytest.mark.parametrize("family,name,minimum", INT_PARAMS, ids=[f"{f}--{n}" for f, n, _ in INT_PARAMS])
@pytest.mark.parametrize("bad", ["below", "-1", "2147483648"])
def test_out_of_range_integer_parameters_are_refused_naming_them(family, name, minimum, bad, capsys, tmp_path):
    value = str(minimum - 1) if bad == "below" else bad
    out = tmp_path / "k.s"
    assert main(["gen", family, f"--{name}", value, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"--{name} {int(value)} must be at least {minimum}" in err or f"--{name}: " in err, err
    assert not out.exists()


def test_gen_gemm_with_a_zero_size_writes_nothing(cli, tmp_path):
    proc = cli("gen", "gemm", "--m", "0", "-o", "k.s")
    assert proc.returncode == 2
    assert proc.stderr.strip() == "error: --m 0 must be at least 1 and at most 2147483647"
    assert not (tmp_path / "k.s").exists()


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_non_finite_float_parameters_are_refused(value, capsys):
    assert main(["gen", "attention", "--scale", value]) == 2
    assert "--scale" in capsys.readouterr().err
