// polyarch._polyarch: the compiled half of the Python package (python/polyarch/). Each function
// takes its options as the program's command line would (the option names without dashes, with
// underscores for dashes) and goes through the same parsers and driver entry points as the
// program, so both accept the same options, produce the same reports and refuse the same input
// with the same messages. Reports cross into Python as JSON text; polyarch.Error becomes the
// Python exception classes of polyarch/errors.py with the error's location as attributes.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "base/config_tree.h"
#include "base/error.h"
#include "cli/arguments.h"
#include "cli/compile_request.h"
#include "cli/run_request.h"
#include "cli/sweep_request.h"
#include "driver/run.h"
#include "reports/json_report.h"
#include "reports/output_files.h"

namespace py = pybind11;

namespace polyarch::python {

namespace {

// SystemC keeps its simulation context in globals: one simulation at a time per process. The
// GIL is released while one runs, so other Python threads go on, but a second simulation waits.
std::mutex& simulation_mutex() {
  static std::mutex mutex;
  return mutex;
}

// Options a Python caller may not give: process-wide limits and terminal output belong to the
// program, the functional mode has its own outputs.
bool python_option(const cli::OptionSpec& spec, const std::vector<std::string>& positional) {
  for (const char* excluded :
       {"quiet", "max-sim-seconds", "max-memory", "functional", "input", "dump-tensor"}) {
    if (spec.name == excluded) return false;
  }
  for (const std::string& name : positional) {
    if (spec.name == name) return false;
  }
  return true;
}

// Keyword arguments as command-line arguments: `seed=3` is `--seed 3`, `no_cache=True` is
// `--no-cache`, False and None leave an option out. An unknown keyword is bad input naming the
// nearest valid one, in Python's spelling.
std::vector<std::string> keyword_arguments(const py::dict& options,
                                           const std::vector<cli::OptionSpec>& specs,
                                           const std::vector<std::string>& positional) {
  std::vector<std::string> valid;
  for (const cli::OptionSpec& spec : specs) {
    if (!python_option(spec, positional)) continue;
    std::string name = spec.name;
    for (char& c : name) c = c == '-' ? '_' : c;
    valid.push_back(name);
  }
  std::vector<std::string> args;
  for (const auto& [key, value] : options) {
    const std::string name = py::str(key);
    if (std::find(valid.begin(), valid.end(), name) == valid.end()) {
      std::string message = "unknown option '" + name + "'";
      const std::string suggestion = nearest_spelling(name, valid);
      if (!suggestion.empty()) message += "; did you mean '" + suggestion + "'?";
      throw_bad_input({}, message);
    }
    std::string option = "--" + name;
    for (char& c : option) c = c == '_' ? '-' : c;
    if (value.is_none()) continue;
    if (py::isinstance<py::bool_>(value)) {
      if (value.cast<bool>()) args.push_back(option);
      continue;
    }
    args.push_back(option);
    args.push_back(py::str(value));
  }
  return args;
}

std::vector<std::string> with_positional(
    std::vector<std::string> args,
    std::initializer_list<std::pair<const char*, std::string>> named) {
  for (const auto& [name, value] : named) {
    args.push_back(std::string("--") + name);
    args.push_back(value);
  }
  return args;
}

// run(arch, workload, options) -> report.json text; with out=DIR also the program's files.
std::string run(const std::string& arch, const std::string& workload, const py::dict& options) {
  const std::vector<cli::OptionSpec> specs = cli::run_option_specs();
  const cli::Arguments parsed(
      with_positional(keyword_arguments(options, specs, {"arch", "workload"}),
                      {{"arch", arch}, {"workload", workload}}),
      specs);
  const driver::RunRequest request = cli::run_request(parsed);
  py::gil_scoped_release release;
  const std::lock_guard<std::mutex> lock(simulation_mutex());
  const sim::RunResult result = driver::run(request);
  const nlohmann::ordered_json report = reports::report_json(result);
  if (auto out = parsed.value("out")) {
    reports::write_files_atomically(*out, cli::run_output_files(result, report));
  }
  return report.dump();
}

// compile(workload, options) -> (compile --json's text, the compiled graph in the text IR, the
// --explain table or "").
py::tuple compile(const std::string& workload, const py::dict& options) {
  const std::vector<cli::OptionSpec> specs = cli::compile_option_specs();
  std::vector<std::string> args =
      keyword_arguments(options, specs, {"workload", "json", "emit-ir", "dump-ir"});
  const cli::Arguments parsed(with_positional(args, {{"workload", workload}}), specs);
  driver::CompileRequest request = cli::compile_request(parsed);
  request.emit_json = true;
  request.emit_ir = true;
  driver::CompileOutcome outcome;
  {
    py::gil_scoped_release release;
    const std::lock_guard<std::mutex> lock(simulation_mutex());
    outcome = driver::compile_workload(request);
  }
  return py::make_tuple(outcome.json, outcome.ir, outcome.decisions);
}

// sweep(sweep_file, options) -> (output directory, summary dict, the summary text).
py::tuple sweep(const std::string& sweep_file, const py::dict& options) {
  const std::vector<cli::OptionSpec> specs = cli::sweep_option_specs();
  std::vector<std::string> args = keyword_arguments(options, specs, {});
  args.push_back(sweep_file);
  const cli::Arguments parsed(args, specs);
  const sweep::SweepRunOptions run_options = cli::sweep_run_options(parsed);
  std::ostringstream text;
  std::ostringstream progress;
  sweep::SweepRunSummary summary;
  {
    py::gil_scoped_release release;
    const std::lock_guard<std::mutex> lock(simulation_mutex());
    summary = sweep::run_sweep(run_options, text, progress);
  }
  py::dict counts;
  counts["points"] = summary.points;
  counts["rejected"] = summary.rejected;
  counts["jobs_total"] = summary.jobs_total;
  counts["jobs_skipped"] = summary.jobs_skipped;
  counts["jobs_failed"] = summary.jobs_failed;
  counts["pareto_point_ids"] = summary.pareto_point_ids;
  counts["sharded"] = run_options.shard_count > 1;
  return py::make_tuple(run_options.out_dir.string(), counts, text.str());
}

// polyarch.Error as the package's exception class for its kind, location as attributes.
void raise_polyarch_error(const Error& error) {
  const py::module_ errors = py::module_::import("polyarch.errors");
  const char* class_name =
      error.kind() == ErrorKind::kBadInput ? "BadInputError" : "SimulationError";
  const py::object type = errors.attr(class_name);
  const SourceLocation& where = error.where();
  auto text_or_none = [](const std::string& text) -> py::object {
    if (text.empty()) return py::none();
    return py::str(text);
  };
  auto number_or_none = [](int number) -> py::object {
    if (number <= 0) return py::none();
    return py::int_(number);
  };
  const py::object instance =
      type(error.message(), text_or_none(where.file), number_or_none(where.line),
           number_or_none(where.column), text_or_none(where.key_path));
  PyErr_SetObject(type.ptr(), instance.ptr());
}

}  // namespace

}  // namespace polyarch::python

PYBIND11_MODULE(_polyarch, module) {
  module.doc() = "polyarch's compiled entry points; use the polyarch package instead";
  module.attr("version") = POLYARCH_VERSION;
  module.def("run", &polyarch::python::run, py::arg("arch"), py::arg("workload"),
             py::arg("options"));
  module.def("compile", &polyarch::python::compile, py::arg("workload"), py::arg("options"));
  module.def("sweep", &polyarch::python::sweep, py::arg("sweep_file"), py::arg("options"));
  py::register_exception_translator([](std::exception_ptr pointer) {
    try {
      if (pointer) std::rethrow_exception(pointer);
    } catch (const polyarch::Error& error) {
      polyarch::python::raise_polyarch_error(error);
    }
  });
}
