"""The Python module against the program: the same inputs give the same report, the same bad
input the same error, now carrying its location as attributes. Run by ctest (PythonModule)
with PYTHONPATH at build/python, POLYARCH_SOURCE_DIR and POLYARCH_CLI set."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

import polyarch

SOURCE = os.environ["POLYARCH_SOURCE_DIR"]
CLI = os.environ["POLYARCH_CLI"]
ARCH = os.path.join(SOURCE, "configs/arch/edge_os_32x32.yaml")
WORKLOAD = os.path.join(SOURCE, "tests/data/layer_list/small_net.yaml")


def column(rows, name):
    """A table's column as a list, whether the table is a DataFrame or a list of dicts."""
    if isinstance(rows, list):
        return [row[name] for row in rows]
    return list(rows.reset_index()[name])


def program(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True, check=False)


class PolyarchModule(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.tmp = self.directory.name

    def tearDown(self):
        self.directory.cleanup()

    def test_run_gives_the_programs_report(self):
        out = os.path.join(self.tmp, "cli")
        finished = program("run", "--arch", ARCH, "--workload", WORKLOAD, "--out", out,
                           "--quiet", "--no-cache", "--seed", "7")
        self.assertEqual(finished.returncode, 0, finished.stderr)
        with open(os.path.join(out, "report.json"), encoding="utf-8") as file:
            expected = json.load(file)
        report = polyarch.run(ARCH, WORKLOAD, no_cache=True, seed=7)
        self.assertEqual(report["summary"]["latency_s"], expected["summary"]["latency_s"])
        self.assertEqual(dict(report), expected)
        self.assertEqual(polyarch.load_report(out), expected)

    def test_a_second_run_in_the_same_process_is_identical(self):
        first = polyarch.run(ARCH, WORKLOAD, no_cache=True)
        second = polyarch.run(ARCH, WORKLOAD, no_cache=True)
        self.assertGreater(first["summary"]["total_cycles"], 0)
        self.assertEqual(first, second)

    def test_tables_name_the_workloads_layers_and_the_units(self):
        report = polyarch.run(ARCH, WORKLOAD, no_cache=True)
        self.assertEqual(column(report.ops, "name"), ["stem", "head", "layer2"])
        self.assertEqual(column(report.units, "name"), ["npu"])
        windows = column(report.power, "time_s")
        self.assertEqual(windows[0], 0.0)
        # The windows tile the run: the last starts within one window of its end.
        window_s = report["power_trace"]["window_s"]
        self.assertLessEqual(windows[-1], report["summary"]["latency_s"])
        self.assertGreater(windows[-1] + window_s, report["summary"]["latency_s"])

    def test_run_with_out_writes_the_programs_files(self):
        out = os.path.join(self.tmp, "py")
        polyarch.run(ARCH, WORKLOAD, no_cache=True, out=out)
        self.assertEqual(sorted(os.listdir(out)),
                         ["ops.csv", "report.html", "report.json", "trace.json"])

    def test_a_bad_arch_key_raises_with_its_file_line_and_key(self):
        arch = os.path.join(self.tmp, "bad.yaml")
        with open(arch, "w", encoding="utf-8") as file:
            file.write(f"base: {ARCH}\nclock_ghzz: 1.0\n")
        with self.assertRaises(polyarch.BadInputError) as caught:
            polyarch.run(arch, WORKLOAD)
        error = caught.exception
        self.assertEqual((error.file, error.line, error.key), (arch, 2, "clock_ghzz"))
        self.assertIn("did you mean 'clock_ghz'", error.message)
        self.assertIsInstance(error, ValueError)
        finished = program("run", "--arch", arch, "--workload", WORKLOAD, "--out", self.tmp)
        self.assertEqual(finished.returncode, 2)
        self.assertEqual(finished.stderr, f"polyarch: error: {error}\n")

    def test_a_bad_option_value_raises_the_programs_message(self):
        finished = program("run", "--arch", ARCH, "--workload", WORKLOAD, "--seed", "-1")
        with self.assertRaises(polyarch.BadInputError) as caught:
            polyarch.run(ARCH, WORKLOAD, seed=-1)
        self.assertEqual(finished.stderr, f"polyarch: error: {caught.exception}\n")

    def test_an_unknown_keyword_names_the_nearest_option(self):
        with self.assertRaises(polyarch.BadInputError) as caught:
            polyarch.run(ARCH, WORKLOAD, seeed=1)
        self.assertEqual(str(caught.exception), "unknown option 'seeed'; did you mean 'seed'?")
        with self.assertRaises(polyarch.BadInputError):
            polyarch.run(ARCH, WORKLOAD, max_memory="1G")  # the program's, not Python's

    def test_load_report_refuses_a_file_that_is_not_a_report(self):
        path = os.path.join(self.tmp, "other.json")
        with open(path, "w", encoding="utf-8") as file:
            json.dump({"schema": "something/1"}, file)
        with self.assertRaises(polyarch.BadInputError) as caught:
            polyarch.load_report(path)
        self.assertEqual((caught.exception.file, caught.exception.key), (path, "schema"))
        with open(path, "w", encoding="utf-8") as file:
            file.write("{\n  \"schema\": ,\n}")
        with self.assertRaises(polyarch.BadInputError) as caught:
            polyarch.load_report(path)
        self.assertEqual(caught.exception.line, 2)

    def test_compile_lists_the_layers_with_their_macs(self):
        compiled = polyarch.compile(WORKLOAD)
        self.assertEqual([op["name"] for op in compiled["ops"]], ["stem", "head", "layer2"])
        # stem: 16 output channels x 16 x 16 positions x (3 channels x 3 x 3 taps).
        self.assertEqual(compiled["ops"][0]["macs"], 16 * 16 * 16 * 3 * 3 * 3)
        self.assertIn("head", compiled["ir"])

    def test_compare_keeps_a_failing_architecture_as_a_row(self):
        missing = os.path.join(self.tmp, "missing.yaml")
        comparison = polyarch.compare(WORKLOAD, [ARCH, missing], no_cache=True)
        self.assertEqual(column(comparison.table, "arch"), [ARCH, missing])
        self.assertEqual(list(comparison.reports), [ARCH])
        self.assertIsInstance(comparison.errors[missing], polyarch.BadInputError)
        self.assertEqual(comparison.errors[missing].file, missing)

    def test_sweep_returns_one_row_per_point(self):
        spec = os.path.join(self.tmp, "rows.yaml")
        with open(spec, "w", encoding="utf-8") as file:
            file.write(f"base: {ARCH}\nparameters:\n  units.npu.rows: [8, 16, 32]\n"
                       f"workloads:\n  - {WORKLOAD}\nobjectives:\n  latency_s: min\n")
        points = polyarch.sweep(spec, out=os.path.join(self.tmp, "sweep"), no_cache=True)
        self.assertEqual(sorted(column(points, "units.npu.rows")), [8, 16, 32])
        self.assertEqual(points.attrs["summary"]["points"], 3)
        self.assertEqual(points.attrs["summary"]["jobs_failed"], 0)
        # The base arch has 32 rows: that point is the base, as run() simulates it.
        latency = dict(zip(column(points, "units.npu.rows"), column(points, "latency_s")))
        base = polyarch.run(ARCH, WORKLOAD, no_cache=True)
        self.assertEqual(latency[32], base["summary"]["latency_s"])
        self.assertNotEqual(latency[8], latency[32])

    def test_without_pandas_tables_are_lists_of_dicts(self):
        script = ("import sys; sys.modules['pandas'] = None\n"
                  "import polyarch\n"
                  f"report = polyarch.run({ARCH!r}, {WORKLOAD!r}, no_cache=True)\n"
                  "assert isinstance(report.ops, list) and report.ops[0]['name'] == 'stem'\n"
                  "assert report.power[0]['time_s'] == 0.0\n")
        finished = subprocess.run([sys.executable, "-c", script], capture_output=True,
                                  text=True, check=False)
        self.assertEqual(finished.returncode, 0, finished.stderr)


if __name__ == "__main__":
    try:
        import pandas  # noqa: F401
    except ImportError:
        print("pandas is not installed: the tables are checked as lists of dicts only")
    unittest.main()
