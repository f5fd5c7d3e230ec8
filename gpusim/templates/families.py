"""Importing this module registers every kernel template family (one module each)."""
from gpusim.templates import gemm  # noqa: F401
from gpusim.templates import transpose  # noqa: F401
from gpusim.templates import stream  # noqa: F401
from gpusim.templates import reduce  # noqa: F401
from gpusim.templates import chase  # noqa: F401
from gpusim.templates import lds_bandwidth  # noqa: F401
from gpusim.templates import softmax  # noqa: F401
from gpusim.templates import attention  # noqa: F401
