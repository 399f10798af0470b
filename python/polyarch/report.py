"""A report as Python sees it: report.json as a dict, and its tables as DataFrames.

pandas is optional: without it the tables are lists of dicts, one per row, with the same
columns.
"""

import json
import os

from polyarch.errors import BadInputError

REPORT_SCHEMA = "polyarch.report/1"


class Rows(list):
    """A table without pandas: a list of dicts, one per row; `attrs` as a DataFrame has it."""

    def __init__(self, rows=()):
        super().__init__(rows)
        self.attrs = {}


def table(rows, index=None):
    """Rows (dicts) as a pandas DataFrame, or as Rows when pandas is absent."""
    try:
        import pandas
    except ImportError:
        return Rows(rows)
    frame = pandas.DataFrame(rows)
    return frame.set_index(index) if index and len(frame) else frame


class Report(dict):
    """report.json (schema polyarch.report/1, docs/report_schema.md) as a dict, plus tables:

    ops    one row per op: name, kind, unit, cycles, latency_s, macs, compute_utilization, ...
           (nested objects such as mapping and energy_by_action stay dicts)
    units  one row per unit: name, kind, busy_cycles, busy_fraction, energy_j, ...
    power  one row per power window: time_s (the window's start), then one column of watts
           per floorplan block
    temperature  the same for the thermal model's temperatures in degrees Celsius (empty when
           the report has none)
    """

    @property
    def ops(self):
        return table(list(self.get("ops", [])))

    @property
    def units(self):
        return table(list(self.get("units", [])))

    @property
    def power(self):
        trace = self.get("power_trace") or {}
        return table(window_rows(trace.get("watts") or {}, trace.get("window_s")), "time_s")

    @property
    def temperature(self):
        trace = self.get("power_trace") or {}
        celsius = (self.get("thermal") or {}).get("celsius") or {}
        return table(window_rows(celsius, trace.get("window_s")), "time_s")


def window_rows(series_by_block, window_s):
    """{block: [value per window]} as one row per window: time_s, then a column per block."""
    if not series_by_block or not window_s:
        return []
    windows = max(len(series) for series in series_by_block.values())
    rows = []
    for index in range(windows):
        row = {"time_s": index * window_s}
        for block, series in series_by_block.items():
            row[block] = series[index] if index < len(series) else None
        rows.append(row)
    return rows


def load_report(path):
    """A report.json written by `polyarch run` (or a directory holding one) as a Report.

    Raises BadInputError naming the file when it is missing, not JSON, or not a polyarch report.
    """
    path = os.fspath(path)
    if os.path.isdir(path):
        path = os.path.join(path, "report.json")
    try:
        with open(path, encoding="utf-8") as file:
            data = json.load(file)
    except OSError as error:
        raise BadInputError(f"cannot open report file ({error.strerror})", file=path) from None
    except json.JSONDecodeError as error:
        raise BadInputError(f"not a JSON file: {error.msg}", file=path, line=error.lineno,
                            column=error.colno) from None
    if not isinstance(data, dict) or data.get("schema") != REPORT_SCHEMA:
        found = data.get("schema") if isinstance(data, dict) else None
        raise BadInputError(f"not a polyarch report: schema is {found!r}, expected "
                            f"{REPORT_SCHEMA!r}", file=path, key="schema")
    return Report(data)
