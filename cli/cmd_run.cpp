// `polyarch run`: compile, map and simulate one workload on one architecture.
#include <iostream>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/resource_limits.h"
#include "compiler/interp/functional_run.h"
#include "reports/csv_report.h"
#include "reports/html/report_html.h"
#include "reports/json_report.h"
#include "reports/output_files.h"
#include "reports/pipeline.h"
#include "reports/text_table.h"
#include "reports/trace_json.h"

namespace polyarch::cli {

namespace {

constexpr const char* kRunHelp =
    R"(usage: polyarch run --arch A.yaml --workload W [--out DIR] [--seed N] [--quiet]

Compiles workload W (a layer-list YAML or a SCALE-Sim topology CSV), maps it onto the units of
architecture A, simulates it, prints a short table and writes DIR/report.json (schema
polyarch.report/1), DIR/ops.csv, DIR/report.html (charts, opens offline) and DIR/trace.json (a
timeline for ui.perfetto.dev). DIR defaults to out/run. Nothing is written on error.

options:
  --arch FILE       architecture YAML (may use `base:`)
  --workload FILE   layer list (.yaml) or SCALE-Sim topology (.csv)
  --out DIR         output directory (created if missing)
  --seed N          seed recorded in provenance (default 0)
  --power-window-us W   power and temperature trace window in microseconds (default 1; at
                        most 10000 windows: longer runs get wider windows)
  --quiet           do not print the table
  --max-sim-seconds S   stop with an error (exit 1) after S seconds of wall-clock time
  --max-memory SIZE     limit the process's memory (GiB, or with M/G suffix: 512M, 4G);
                        exceeding it ends the run with "out of memory" (exit 1)

functional mode (the reference interpreter; no --arch, nothing simulated):
  polyarch run --functional --workload M.onnx --input x.npy [--input NAME=y.npy ...]
               [--dump-tensor NAME ...] [--out DIR]
  --functional      compile the ONNX model M and execute it numerically (fp32; int8 QDQ as the
                    model says); needs the model's weights
  --input [NAME=]F  a graph input's value as a .npy file (token ids as int64); without NAME it
                    feeds the first input not yet given
  --dump-tensor T   also write tensor T of the compiled graph as DIR/tensors/T.npy
  Graph outputs go to DIR/outputs/<name>.npy (float32; characters other than letters, digits,
  '.', '-' and '_' in a name become '_'). DIR defaults to out/run.
)";

uint64_t parse_seed(const std::optional<std::string>& text) {
  if (!text) return 0;
  try {
    std::size_t consumed = 0;
    unsigned long long seed = std::stoull(*text, &consumed);
    if (consumed == text->size() && (*text)[0] != '-') return seed;
  } catch (const std::exception&) {
  }
  throw_bad_input({}, "--seed expects a non-negative integer, got '" + *text + "'");
}

int run_functional_command(const Arguments& parsed) {
  if (parsed.value("arch")) {
    throw_bad_input({}, "--functional runs the reference interpreter only; drop --arch");
  }
  interp::FunctionalRequest request;
  request.workload_path = parsed.required("workload");
  request.inputs = parsed.values("input");
  request.dump_tensors = parsed.values("dump-tensor");
  const std::filesystem::path out_dir = parsed.value("out").value_or("out/run");
  apply_resource_limits(
      parse_resource_limits(parsed.value("max-sim-seconds"), parsed.value("max-memory")));
  const interp::FunctionalResult result = interp::run_functional(request);
  reports::write_files_atomically(out_dir / "outputs", result.outputs);
  if (!result.tensors.empty()) reports::write_files_atomically(out_dir / "tensors", result.tensors);
  if (!parsed.flag("quiet")) {
    std::cout << "wrote " << result.outputs.size() << " output(s) to "
              << (out_dir / "outputs").string();
    if (!result.tensors.empty()) {
      std::cout << " and " << result.tensors.size() << " tensor(s) to "
                << (out_dir / "tensors").string();
    }
    std::cout << "\n";
  }
  return 0;
}

}  // namespace

bool wants_help(const CommandArgs& args) {
  for (const std::string& arg : args) {
    if (arg == "--help" || arg == "-h") return true;
  }
  return false;
}

int run_command(const CommandArgs& args) {
  if (wants_help(args)) {
    std::cout << kRunHelp;
    return 0;
  }
  Arguments parsed(args, {{"arch"},
                          {"workload"},
                          {"out"},
                          {"seed"},
                          {"power-window-us"},
                          {"quiet", false},
                          {"max-sim-seconds"},
                          {"max-memory"},
                          {"functional", false},
                          {"input", true, true},
                          {"dump-tensor", true, true}});
  if (!parsed.positionals().empty()) {
    throw_bad_input({}, "unexpected argument '" + parsed.positionals().front() + "' (see --help)");
  }
  if (parsed.flag("functional")) return run_functional_command(parsed);
  if (parsed.value("input") || parsed.value("dump-tensor")) {
    throw_bad_input({}, "--input and --dump-tensor need --functional");
  }
  reports::RunRequest request;
  request.arch_path = parsed.required("arch");
  request.workload_path = parsed.required("workload");
  request.seed = parse_seed(parsed.value("seed"));
  if (auto window = parsed.value("power-window-us")) {
    request.power_window_s = parse_positive("power-window-us", *window, 1e-6);
  }
  std::filesystem::path out_dir = parsed.value("out").value_or("out/run");
  apply_resource_limits(
      parse_resource_limits(parsed.value("max-sim-seconds"), parsed.value("max-memory")));

  sim::RunResult result = reports::run_pipeline(request);
  const nlohmann::ordered_json report = reports::report_json(result);
  reports::write_files_atomically(out_dir,
                                  {{"report.json", report.dump(2) + "\n"},
                                   {"ops.csv", reports::ops_csv(result)},
                                   {"trace.json", reports::trace_json(result).dump() + "\n"},
                                   {"report.html", reports::report_html(report)}});
  if (!parsed.flag("quiet")) {
    std::cout << reports::summary_table(result);
    std::cout << "wrote report.json, ops.csv, report.html and trace.json (open in ui.perfetto.dev) to "
              << out_dir.string() << "\n";
  }
  return 0;
}

}  // namespace polyarch::cli
