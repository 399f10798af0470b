#!/usr/bin/env python3
"""Checks that a validation results.csv is complete: the exact header, one row for every case
folder under tests/validation (a folder holding case.yaml, its `case:` the folder's name), and no
empty cell. Not an accuracy check: the errors may be anything.

usage: check_results.py RESULTS_CSV [CASES_DIR]
"""

import csv
import os
import sys

HEADER = ["kind", "case", "source", "metric", "unit", "published", "polyarch", "error_pct"]


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    csv_path = sys.argv[1]
    cases_dir = sys.argv[2] if len(sys.argv) == 3 else os.path.dirname(os.path.abspath(__file__))
    folders = sorted(name for name in os.listdir(cases_dir)
                     if os.path.isfile(os.path.join(cases_dir, name, "case.yaml")))
    with open(csv_path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    problems = []
    if not rows or rows[0] != HEADER:
        problems.append(f"header is {rows[0] if rows else 'missing'}, expected {HEADER}")
    body = rows[1:]
    named = [row[1] if len(row) > 1 else "" for row in body]
    for folder in folders:
        if named.count(folder) != 1:
            problems.append(f"case {folder}: {named.count(folder)} rows, expected 1")
    for extra in sorted(set(named) - set(folders)):
        problems.append(f"row {extra!r} has no case folder")
    for number, row in enumerate(body, 2):
        if len(row) != len(HEADER):
            problems.append(f"line {number}: {len(row)} cells, expected {len(HEADER)}")
            continue
        empty = [HEADER[i] for i, value in enumerate(row) if not value.strip()]
        if empty:
            problems.append(f"line {number} ({row[1]}): empty {', '.join(empty)}")
        for column in ("published", "polyarch", "error_pct"):
            value = row[HEADER.index(column)]
            try:
                float(value)
            except ValueError:
                if value.strip():
                    problems.append(f"line {number} ({row[1]}): {column} {value!r} is not a number")
    if not folders:
        problems.append(f"no case folders under {cases_dir}")
    for problem in problems:
        print(problem, file=sys.stderr)
    print(f"{csv_path}: {len(body)} rows, {len(folders)} cases, "
          f"{'complete' if not problems else f'{len(problems)} problems'}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
