"""polyarch from Python: simulate, compile, compare and sweep heterogeneous hardware.

    import polyarch
    report = polyarch.run("configs/arch/tpu_v1_like.yaml", "workloads/resnet50_layers.yaml")
    report["summary"]["latency_s"]   # report.json as a dict
    report.ops                       # one row per op (a pandas DataFrame when pandas is installed)

The options are the program's (``polyarch run --help``), spelled with underscores:
``run(arch, workload, seed=1, search="random", no_cache=True)``. Errors raise
polyarch.BadInputError or polyarch.SimulationError, which carry ``file``, ``line``, ``column``
and ``key``. See docs/python.md.
"""

from polyarch.api import compare, compile, run, sweep
from polyarch.errors import BadInputError, Error, SimulationError
from polyarch.report import Report, load_report

from polyarch import _polyarch

__version__ = _polyarch.version
__all__ = ["run", "compile", "compare", "sweep", "load_report", "Report", "Error",
           "BadInputError", "SimulationError"]
