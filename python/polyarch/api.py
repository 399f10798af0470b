"""run, compile, compare and sweep: the program's commands as functions.

Each goes through the same option parsers and library entry points as the program (no
subprocess), so the options, the reports and the errors are the program's.
"""

import csv
import json
import os

from polyarch import _polyarch
from polyarch.errors import Error
from polyarch.report import Report, table


def path_text(value):
    return os.fspath(value)


def run(arch, workload, **options):
    """Simulate `workload` on `arch`; returns the Report (report.json as a dict, plus tables).

    Options are `polyarch run`'s, with underscores: seed, power_window_us, only_supported,
    pipeline_batches, mapping, search, objective, search_budget, cache_dir, no_cache,
    allow_unknown, precision, sparsity, layout, and out=DIR to also write the program's files
    (report.json, ops.csv, trace.json, report.html) there.
    """
    text = _polyarch.run(path_text(arch), path_text(workload), options)
    return Report(json.loads(text))


def compile(workload, **options):
    """Compile `workload` without simulating it; returns `polyarch compile --json`'s document as
    a dict, plus "ir" (the compiled graph in the text IR) and, with arch=... and explain=True,
    "explain" (the per-op mapping table). Options: arch, explain, passes, allow_unknown,
    precision, sparsity, layout and the mapping options of `run`.
    """
    document, ir_text, explanation = _polyarch.compile(path_text(workload), options)
    compiled = json.loads(document)
    compiled["ir"] = ir_text
    if explanation:
        compiled["explain"] = explanation
    return compiled


class Comparison:
    """The result of compare(): `table` has one row per architecture (arch, name, latency_s,
    energy_j, avg_power_w, peak_temp_c, total_cycles, error); `reports` maps each arch path that
    ran to its Report; `errors` maps each that did not to its polyarch.Error."""

    def __init__(self, rows, reports, errors):
        self.table = table(rows)
        self.reports = reports
        self.errors = errors


def compare(workload, archs, **options):
    """Run `workload` on every architecture in `archs` with the same options. An architecture
    that cannot run it keeps its row with the error, as in `polyarch compare`."""
    rows, reports, errors = [], {}, {}
    for arch in archs:
        arch = path_text(arch)
        row = {"arch": arch}
        try:
            report = run(arch, workload, **options)
        except Error as error:
            errors[arch] = error
            row.update(name=None, latency_s=None, energy_j=None, avg_power_w=None,
                       peak_temp_c=None, total_cycles=None, error=str(error))
        else:
            reports[arch] = report
            summary = report["summary"]
            row.update(name=report["provenance"]["arch_name"], latency_s=summary["latency_s"],
                       energy_j=summary["energy_j"], avg_power_w=summary["avg_power_w"],
                       peak_temp_c=summary.get("peak_temp_c"),
                       total_cycles=summary["total_cycles"], error=None)
        rows.append(row)
    return Comparison(rows, reports, errors)


def csv_value(text):
    """A points.csv cell as the number it spells, None when empty, else the text."""
    if text == "":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def sweep(sweep_file, **options):
    """Run a design-space sweep (`polyarch sweep`); returns its points as a DataFrame (a list of
    dicts without pandas): one row per (point, workload) with point_id, the parameters, the
    metrics and pareto, as DIR/points.csv holds them. Options: out (default
    out/sweeps/<sweep file name>), jobs, resume, shard and the mapping options of `run`. The
    table's attrs["summary"] holds the run's counts, its Pareto front's point ids and out_dir.
    A shard run writes no points.csv: its table is empty; `polyarch merge` joins the shards.
    """
    out_dir, summary, _ = _polyarch.sweep(path_text(sweep_file), options)
    summary["out_dir"] = out_dir
    rows = []
    points_csv = os.path.join(out_dir, "points.csv")
    if not summary["sharded"] and os.path.exists(points_csv):
        with open(points_csv, newline="", encoding="utf-8") as file:
            rows = [{key: csv_value(value) for key, value in row.items()}
                    for row in csv.DictReader(file)]
    points = table(rows)
    points.attrs["summary"] = summary
    return points
