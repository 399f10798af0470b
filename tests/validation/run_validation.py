#!/usr/bin/env python3
"""Runs every validation case and tabulates polyarch against the published figures.

A case is a folder tests/validation/<case>/ holding case.yaml (what was published, where, under
which conditions, and how to read the same metric from polyarch's report.json), the arch YAML and
the workload that reproduce the published setup. This script runs each case through
`polyarch run --quiet`, writes OUT/results.csv with the columns

    kind,case,source,metric,unit,published,polyarch,error_pct

and regenerates docs/validation.md (the table grouped by kind, the median and worst |error| per
kind, what differs between the setups, the limitation named for each error above 25 %).
`make validate` runs it. It is not a pass/fail test of accuracy: it exits non-zero only when a
case cannot be read or run.

Python 3 standard library only. case.yaml is read by a small reader of the subset the cases use:
one `key: value` per line, values bare or double-quoted, `#` comments, and a value continued on
the following lines indented by two or more spaces (joined with single spaces).
"""

import argparse
import concurrent.futures
import csv
import json
import math
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
COLUMNS = ["kind", "case", "source", "metric", "unit", "published", "polyarch", "error_pct"]
KIND_ORDER = ["systolic", "simd", "mimd", "pim", "crossbar", "dataflow"]
REQUIRED_KEYS = ["kind", "case", "source", "metric", "unit", "published", "conditions",
                 "differs", "arch", "workload", "polyarch"]
OPTIONAL_KEYS = ["baseline_arch", "baseline_workload", "run_args", "limitation"]
# Metrics in these units are energy or power cases, summarised across kinds as well.
ENERGY_UNITS = {"W", "mW", "J", "mJ", "uJ", "pJ", "pJ/MAC", "GOPS/W", "TOPS/W", "TFLOPS/W"}
AREA_UNITS = {"mm2"}


def measure_of(case):
    """What a case measures, from its unit: energy and power, area, or performance."""
    if case["unit"] in ENERGY_UNITS:
        return "energy and power"
    return "area" if case["unit"] in AREA_UNITS else "performance"
LIMITATION_THRESHOLD_PCT = 25.0


class CaseError(Exception):
    pass


def read_case_yaml(path):
    """The flat key/value subset of YAML that case.yaml files use."""
    values = {}
    last_key = None
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            if line.startswith("  ") and last_key is not None:
                values[last_key] = (values[last_key] + " " + stripped).strip()
                continue
            key, sep, value = line.partition(":")
            if not sep or not key.strip() or key != key.strip():
                raise CaseError(f"{path}:{number}: expected `key: value`, got {line!r}")
            value = value.strip()
            if value.startswith('"'):
                if len(value) < 2 or not value.endswith('"'):
                    raise CaseError(f"{path}:{number}: unterminated quoted value")
                value = value[1:-1]
            elif " #" in value:
                value = value.split(" #", 1)[0].strip()
            if key in values:
                raise CaseError(f"{path}:{number}: key `{key}` given twice")
            if key not in REQUIRED_KEYS and key not in OPTIONAL_KEYS:
                raise CaseError(f"{path}:{number}: unknown key `{key}` (keys: "
                                f"{', '.join(REQUIRED_KEYS + OPTIONAL_KEYS)})")
            values[key] = value
            last_key = key
    missing = [k for k in REQUIRED_KEYS if not values.get(k)]
    if missing:
        raise CaseError(f"{path}: missing {', '.join(missing)}")
    if values["kind"] not in KIND_ORDER:
        raise CaseError(f"{path}: kind `{values['kind']}` is not one of {', '.join(KIND_ORDER)}")
    try:
        values["published"] = float(values["published"])
    except ValueError:
        raise CaseError(f"{path}: published must be a number, got {values['published']!r}")
    return values


def discover_cases(cases_dir):
    cases = []
    for name in sorted(os.listdir(cases_dir)):
        folder = os.path.join(cases_dir, name)
        case_file = os.path.join(folder, "case.yaml")
        if os.path.isfile(case_file):
            case = read_case_yaml(case_file)
            if case["case"] != name:
                raise CaseError(f"{case_file}: case `{case['case']}` differs from its folder "
                                f"`{name}`")
            case["folder"] = folder
            cases.append(case)
    return cases


def report_quantities(report):
    """The names a case's `polyarch` expression may use, from one report.json."""
    summary = report["summary"]
    ops = report["ops"]
    flops = 0.0
    for op in ops:
        roofline = op.get("roofline")
        flops += roofline["flops"] if roofline and roofline.get("flops") else 2.0 * op["macs"]
    units = {u["name"]: u for u in report["units"]}
    area = [u.get("area_mm2") for u in report["units"]]
    return {
        "latency_s": summary["latency_s"],
        "energy_j": summary.get("energy_j"),
        "avg_power_w": summary.get("avg_power_w"),
        "board_power_w": summary.get("board_power_w"),
        "energy_by_action": summary.get("energy_by_action") or {},
        "dram_bytes_read": summary["dram_bytes_read"],
        "dram_bytes_written": summary["dram_bytes_written"],
        "dram_bytes": summary["dram_bytes_read"] + summary["dram_bytes_written"],
        "macs": float(sum(op["macs"] for op in ops)),
        "flops": flops,
        "area_mm2": sum(a for a in area if a is not None) if any(a is not None for a in area)
        else None,
        "units": units,
        "ops": ops,
    }


def run_polyarch(polyarch, arch, workload, out_dir, run_args):
    os.makedirs(out_dir, exist_ok=True)
    command = [polyarch, "run", "--quiet", "--arch", arch, "--workload", workload, "--out",
               out_dir, "--cache-dir", os.path.join(os.path.dirname(out_dir), "cache")]
    command += run_args.split()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        raise CaseError(f"`{' '.join(command)}` exited {done.returncode}:\n{done.stderr.strip()}")
    with open(os.path.join(out_dir, "report.json"), encoding="utf-8") as f:
        return json.load(f)


def case_path(case, key):
    """A file named in case.yaml: relative to the case folder, or to the repository root."""
    value = case[key]
    local = os.path.join(case["folder"], value)
    return local if os.path.exists(local) else os.path.join(ROOT, value)


def evaluate_case(case, polyarch, out_dir):
    started = time.monotonic()
    runs_dir = os.path.join(out_dir, "runs")
    report = run_polyarch(polyarch, case_path(case, "arch"), case_path(case, "workload"),
                          os.path.join(runs_dir, case["case"]), case.get("run_args", ""))
    names = report_quantities(report)
    if case.get("baseline_arch") or case.get("baseline_workload"):
        base = run_polyarch(
            polyarch, case_path(case, "baseline_arch" if case.get("baseline_arch") else "arch"),
            case_path(case, "baseline_workload" if case.get("baseline_workload") else "workload"),
            os.path.join(runs_dir, case["case"] + ".baseline"), case.get("run_args", ""))
        names.update({"base_" + k: v for k, v in report_quantities(base).items()})
    scope = {"__builtins__": {}, "min": min, "max": max, "sum": sum, "len": len, "abs": abs}
    scope.update(names)
    try:
        value = float(eval(case["polyarch"], scope))  # the expression is the case's own file
    except Exception as e:  # noqa: BLE001 - any failure of the expression is the case's error
        raise CaseError(f"{case['case']}: polyarch expression `{case['polyarch']}`: {e}")
    if not math.isfinite(value):
        raise CaseError(f"{case['case']}: polyarch expression gave {value}")
    return value, time.monotonic() - started


def significant(x, digits=4):
    if x == 0:
        return "0"
    return f"{x:.{digits}g}" if 1e-3 <= abs(x) < 1e6 else f"{x:.{digits - 1}e}"


def error_pct(published, value):
    return 100.0 * (value - published) / published


def write_csv(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(COLUMNS)
        for case, value in rows:
            writer.writerow([case["kind"], case["case"], case["source"], case["metric"],
                             case["unit"], significant(case["published"]),
                             "" if value is None else significant(value),
                             "" if value is None else f"{error_pct(case['published'], value):.1f}"])


def summary_line(errors):
    abs_errors = [abs(e) for _, e in errors]
    worst_case, worst = max(errors, key=lambda ce: abs(ce[1]))
    return (f"{len(errors)} cases: median |error| {statistics.median(abs_errors):.1f} %, "
            f"worst {abs(worst):.1f} % ({worst_case})")


def cell(text):
    return str(text).replace("|", "\\|")


def write_docs(path, rows):
    done = [(c, v) for c, v in rows if v is not None]
    lines = [
        "# Validation against silicon and papers",
        "",
        "<!-- Generated by tests/validation/run_validation.py (`make validate`); edit the cases, "
        "not this page. -->",
        "",
        "Each case in `tests/validation/<case>/` reproduces one published or measured figure: "
        "`case.yaml` names the source (paper or datasheet with its table or figure, or the "
        "measuring script and its data), the quoted conditions, the metric and how to read it "
        "from polyarch's `report.json`; the arch YAML beside it sets the paper's own hardware "
        "parameters (cited in its comments) and the workload states the published "
        "computation. `make validate` runs every case (a few minutes on 2 cores), writes "
        "`build/validation/results.csv` (`kind,case,source,metric,unit,published,polyarch,"
        "error_pct`) and regenerates this page. Error is (polyarch − published) / published. "
        "No model constant is tuned to a case: a case may only set hardware parameters its "
        "source states. This is a measurement of the models, not a pass/fail test; the ctests "
        "`ValidationCasesRun` and `ValidationCsvComplete` (label `validation`) check only that "
        "every case runs and the CSV is complete. How to add a case, and the sources still to "
        "add: [tests/validation/README.md](../tests/validation/README.md).",
        "",
        "Two other comparisons live beside the cases: `tests/validation/dram/` (the JEDEC DRAM "
        "model against DRAMsim3, [dram_validation.md](dram_validation.md)) and the measured "
        "data the cases read (`tests/validation/gpu/`: H100 and H200 kernel timings, and the "
        "script that writes a case for every measured kernel; "
        "`tests/validation/cpu/`: this project's build machine).",
        "",
        "## Summary",
        "",
        "| group | cases | median abs(error) % | worst abs(error) % | worst case |",
        "|---|---|---|---|---|",
    ]
    groups = [(kind, [(c, v) for c, v in done if c["kind"] == kind]) for kind in KIND_ORDER]
    for measure in ("performance", "energy and power", "area"):
        groups.append((f"{measure} (all kinds)", [(c, v) for c, v in done
                                                  if measure_of(c) == measure]))
    groups.append(("all", done))
    for name, members in groups:
        if not members:
            lines.append(f"| {name} | 0 | | | |")
            continue
        errors = [abs(error_pct(c["published"], v)) for c, v in members]
        worst_case, worst_value = max(members,
                                      key=lambda cv: abs(error_pct(cv[0]["published"], cv[1])))
        lines.append(f"| {name} | {len(members)} | {statistics.median(errors):.1f} | "
                     f"{max(errors):.1f} | {worst_case['case']} |")
    failed = [c for c, v in rows if v is None]
    if failed:
        lines += ["", "Cases that did not run: " + ", ".join(c["case"] for c in failed) + "."]
    for kind in KIND_ORDER:
        members = [(c, v) for c, v in rows if c["kind"] == kind]
        lines += ["", f"## {kind}", ""]
        if not members:
            lines.append("No cases yet.")
            continue
        lines += ["| case | metric | unit | published | polyarch | error % | source |",
                  "|---|---|---|---|---|---|---|"]
        for c, v in members:
            value = "" if v is None else significant(v)
            err = "" if v is None else f"{error_pct(c['published'], v):+.1f}"
            lines.append(f"| {cell(c['case'])} | {cell(c['metric'])} | {cell(c['unit'])} | "
                         f"{significant(c['published'])} | {value} | {err} | "
                         f"{cell(c['source'])} |")
        ran = [(c["case"], error_pct(c["published"], v)) for c, v in members if v is not None]
        if ran:
            lines += ["", summary_line(ran) + "."]
        lines += ["", "What differs between the setups:", ""]
        for c, _ in members:
            lines.append(f"- `{c['case']}`: {c['differs']}. Conditions: {c['conditions']}.")
        over = [(c, v) for c, v in members
                if v is not None and abs(error_pct(c["published"], v)) > LIMITATION_THRESHOLD_PCT]
        if over:
            lines += ["", "Where the error exceeds 25 %, the modelling limitation:", ""]
            for c, v in over:
                lines.append(f"- `{c['case']}` ({error_pct(c['published'], v):+.0f} %): "
                             f"{c.get('limitation', 'not yet named.')}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--polyarch", default=os.path.join(ROOT, "build", "cli", "polyarch"))
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "validation"),
                        help="writes results.csv and the runs here")
    parser.add_argument("--docs", default=os.path.join(ROOT, "docs", "validation.md"))
    parser.add_argument("--no-docs", action="store_true", help="leave docs/validation.md alone")
    parser.add_argument("--cases", default=HERE, help="the folder holding the case folders")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="*", help="run only these cases (no docs written)")
    args = parser.parse_args()

    polyarch = os.path.abspath(args.polyarch)
    out_dir = os.path.abspath(args.out)
    try:
        cases = discover_cases(args.cases)
    except CaseError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    if args.only:
        cases = [c for c in cases if c["case"] in set(args.only)]
    values = {}
    failures = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {pool.submit(evaluate_case, c, polyarch, out_dir): c for c in cases}
        for future in concurrent.futures.as_completed(futures):
            case = futures[future]
            try:
                value, seconds = future.result()
            except CaseError as e:
                failures += 1
                print(f"FAILED {case['case']}: {e}", file=sys.stderr)
                continue
            values[case["case"]] = value
            err = error_pct(case["published"], value)
            flag = "" if abs(err) <= LIMITATION_THRESHOLD_PCT or case.get("limitation") else \
                "  (over 25 % and no limitation named)"
            print(f"{case['kind']:9} {case['case']:44} published {significant(case['published']):>10}"
                  f"  polyarch {significant(value):>10} {case['unit']:8} {err:+7.1f} %"
                  f"  [{seconds:.1f} s]{flag}")
    rows = [(c, values.get(c["case"])) for c in cases]
    csv_path = os.path.join(out_dir, "results.csv")
    write_csv(csv_path, rows)
    print(f"wrote {csv_path}")
    if not args.no_docs and not args.only:
        write_docs(args.docs, rows)
        print(f"wrote {args.docs}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
