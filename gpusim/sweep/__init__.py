"""What-if studies: grids of architecture and template parameters, run in parallel.

``load_study`` reads and validates a study file (gpusim.sweep.study); ``run_study`` runs its
points on local processes or a Dask cluster and writes their rows as they complete
(gpusim.sweep.runner, gpusim.sweep.results).
"""
from gpusim.sweep.results import read_results
from gpusim.sweep.runner import run_study
from gpusim.sweep.study import Study, StudyError, load_study

__all__ = ["Study", "StudyError", "load_study", "run_study", "read_results"]
