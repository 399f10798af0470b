// `polyarch run`: compile, map and simulate one workload on one architecture.
#include <iostream>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/pipeline_flags.h"
#include "cli/resource_limits.h"
#include "cli/run_progress.h"
#include "cli/run_request.h"
#include "driver/attention_forms.h"
#include "driver/functional.h"
#include "driver/registry_names.h"
#include "driver/run.h"
#include "reports/json_report.h"
#include "reports/output_files.h"
#include "reports/schedule_text.h"
#include "reports/text_table.h"

namespace polyarch::cli {

namespace {

// The help; the unit kinds and searchers come from their registries.
std::string run_help() {
  return R"(usage: polyarch run --arch A.yaml --workload W [--out DIR] [--seed N] [--quiet]
                    [--mapping fixed|searched] [--search S [--objective O] [--search-budget N]]
                    [--cache-dir DIR|--no-cache]

Compiles workload W (a layer-list YAML, a SCALE-Sim topology CSV, an ONNX model or a text IR
file), maps it onto the units of architecture A, simulates it, prints a short table and writes DIR/report.json (schema
polyarch.report/1), DIR/ops.csv, DIR/report.html (charts, opens offline) and DIR/trace.json (a
timeline for ui.perfetto.dev). DIR defaults to out/run. Nothing is written on error.

options:
  --arch FILE       architecture YAML (may use `base:`)
  --workload FILE   layer list (.yaml), SCALE-Sim topology (.csv), ONNX model (.onnx) or text
                    IR (.ir, docs/ir.md)
  --out DIR         output directory (created if missing)
  --seed N          seed recorded in provenance (default 0)
  --power-window-us W   power and temperature trace window in microseconds (default 1; at
                        most 10000 windows: longer runs get wider windows)
  --quiet           do not print the table, nor the elapsed-time line a terminal shows on
                    stderr while a simulation takes more than two seconds
  --only-supported  simulate the ops some unit can run and leave out the others, listing them
                    (name, kind, MACs, bytes) on the terminal and in report.json's skipped_ops;
                    without it such ops are refused, all named at once
  --pipeline-batches N  stream N inputs of the workload through the SoC (layer pipelining: the
                        list scheduler overlaps layers of consecutive inputs on different
                        units); report.json's schedule.pipeline compares throughput and latency
                        with the inputs run one after another (default 1)
  --max-sim-seconds S   stop with an error (exit 1) after S seconds of wall-clock time
  --max-memory SIZE     limit the process's memory (GiB, or with M/G suffix: 512M, 4G);
                        exceeding it ends the run with "out of memory" (exit 1)

mapping (units whose kind exposes a mapping space: )" + driver::unit_kind_list() + R"():
  --mapping M       searched (default): the compiler searches each op's mapping (dataflow,
                    tiling, partition, ...) and the unit runs the best one; fixed: each unit
                    runs the mapping its YAML configures (what a cycle-exact comparison with
                    SCALE-Sim needs: scalesim_compat units are exact in this mode).
                    report.json's `mapping` says which mode ran
  --search S        the searcher for each op shape, exhaustive by default (seeded by --seed).
                    Searchers: )" + driver::searcher_list() + R"(
  --objective O     what the search minimises: latency (default), energy, edp, weighted:L,E
  --search-budget N evaluations per decision for the non-exhaustive searchers (default 2000)
  --cache-dir DIR   where decisions are cached (default $XDG_CACHE_HOME/polyarch); a later run
                    reads them instead of searching, with the same report bytes (compile
                    --explain says which decisions were cached)
  --no-cache        search every decision again and store nothing

functional mode (the reference interpreter; nothing simulated):
  polyarch run --functional --workload M.onnx --input x.npy [--input NAME=y.npy ...]
               [--dump-tensor NAME ...] [--out DIR] [--arch A.yaml [--seed N] | --precision P]
  --functional      compile the ONNX model M and execute it numerically (fp32; int8 QDQ as the
                    model says); needs the model's weights
  --input [NAME=]F  a graph input's value as a .npy file (token ids as int64); without NAME it
                    feeds the first input not yet given
  --dump-tensor T   also write tensor T of the compiled graph as DIR/tensors/T.npy
  Graph outputs go to DIR/outputs/<name>.npy (float32; characters other than letters, digits,
  '.', '-' and '_' in a name become '_'). DIR defaults to out/run.
  --arch A.yaml     compute the static-weight Gemm/Conv products on A's crossbar unit with its
                    analog effects (ADC, DAC, noise, faults, IR drop; its `analog:` keys, seeded
                    by --seed) and write DIR/functional.json: per-output and per-layer error
                    against the ideal fp32 run, top-1 agreement for classifiers
  --precision P     run the ops in the formats P gives them (see compiler passes below), emulated
                    exactly: fp16/bf16 rounding to nearest even, fp8 gemm/conv2d with per-tensor
                    scales (amax / largest finite) and saturation, int4/int8/fp8 weights in
                    groups with fp16 scales, quantised KV caches (docs/numerics.md); writes
                    DIR/functional.json with per-output and per-layer error against the fp32
                    run of the same model. Not with --arch
)";
}

// One line per output of an analog or narrow-format run: its error against the ideal fp32 run.
void print_accuracy(const nlohmann::ordered_json& accuracy, const std::filesystem::path& out_dir) {
  const bool formats = accuracy.contains("precision");
  if (formats && accuracy["precision"].contains("notes")) {
    for (const auto& note : accuracy["precision"]["notes"]) {
      std::cout << "note: " << note.get<std::string>() << "\n";
    }
  }
  const std::string against = formats ? "fp32" : "ideal";
  for (const auto& output : accuracy["outputs"]) {
    std::cout << output["name"].get<std::string>() << " vs " << against << ": max rel error "
              << output["max_rel_error"].get<double>();
    if (output.contains("top1_agreement")) {
      std::cout << ", top-1 agreement " << output["top1_agreement"].get<double>();
    }
    std::cout << "\n";
  }
  std::cout << "wrote " << (out_dir / "functional.json").string() << "\n";
}

int run_functional_command(const Arguments& parsed) {
  driver::FunctionalRunRequest request;
  if (const auto arch = parsed.value("arch")) request.arch_path = *arch;
  request.seed = parse_seed(parsed.value("seed"));
  request.interpreter.workload_path = parsed.required("workload");
  request.interpreter.inputs = parsed.values("input");
  request.interpreter.dump_tensors = parsed.values("dump-tensor");
  request.interpreter.precision = parsed.value("precision");
  const std::filesystem::path out_dir = parsed.value("out").value_or("out/run");
  apply_resource_limits(
      parse_resource_limits(parsed.value("max-sim-seconds"), parsed.value("max-memory")));
  const interp::FunctionalResult result = driver::run_functional(request);
  reports::write_files_atomically(out_dir / "outputs", result.outputs);
  if (!result.tensors.empty()) reports::write_files_atomically(out_dir / "tensors", result.tensors);
  if (result.accuracy) {
    reports::write_files_atomically(out_dir,
                                    {{"functional.json", result.accuracy->dump(2) + "\n"}});
  }
  if (!parsed.flag("quiet")) {
    std::cout << "wrote " << result.outputs.size() << " output(s) to "
              << (out_dir / "outputs").string();
    if (!result.tensors.empty()) {
      std::cout << " and " << result.tensors.size() << " tensor(s) to "
                << (out_dir / "tensors").string();
    }
    std::cout << "\n";
    if (result.accuracy) print_accuracy(*result.accuracy, out_dir);
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
    std::cout << run_help() << "\n" << pipeline_flags_help();
    return 0;
  }
  Arguments parsed(args, run_option_specs());
  if (!parsed.positionals().empty()) {
    throw_bad_input({}, "unexpected argument '" + parsed.positionals().front() + "' (see --help)");
  }
  if (parsed.flag("functional")) {
    // Placeholders carry costs, not semantics, and the other passes only annotate costs: the
    // interpreter computes the model as it is.
    if (parsed.flag("allow-unknown")) {
      throw_bad_input({}, "--allow-unknown keeps unsupported operators for timing only; the "
                          "reference interpreter cannot execute them (drop --functional)");
    }
    for (const char* flag : {"sparsity", "layout"}) {
      if (parsed.value(flag)) {
        throw_bad_input({}, "--" + std::string(flag) + " changes costs, not values: the "
                                "reference interpreter computes in fp32 (drop it or --functional)");
      }
    }
    // A crossbar computes its products in its own analog numerics; which digital format its
    // inputs were quantised to first would be a third model nobody asked for.
    if (parsed.value("precision") && parsed.value("arch")) {
      throw_bad_input({}, "--precision with --functional compares the formats with fp32, --arch "
                          "a crossbar's analog numerics with fp32: give one of them");
    }
    if (parsed.flag("only-supported")) {
      throw_bad_input({}, "--only-supported chooses which ops to simulate; the reference "
                          "interpreter executes the whole model (drop it or --functional)");
    }
    return run_functional_command(parsed);
  }
  if (parsed.value("input") || parsed.value("dump-tensor")) {
    throw_bad_input({}, "--input and --dump-tensor need --functional");
  }
  const driver::RunRequest request = run_request(parsed);
  std::filesystem::path out_dir = parsed.value("out").value_or("out/run");
  apply_resource_limits(
      parse_resource_limits(parsed.value("max-sim-seconds"), parsed.value("max-memory")));

  sim::RunResult result = [&] {
    const RunProgress progress(request.arch_path.filename().string() + " on " +
                                   request.workload_path.filename().string(),
                               !parsed.flag("quiet") && stderr_is_terminal());
    return driver::run(request);
  }();
  const nlohmann::ordered_json report = reports::report_json(result);
  reports::write_files_atomically(out_dir, run_output_files(result, report));
  if (!parsed.flag("quiet")) {
    std::cout << reports::summary_table(result) << reports::schedule_summary(result)
              << reports::skipped_ops_text(result)
              << driver::attention_forms_text(result.attention_forms);
    if (result.memory) {
      for (const std::string& note : result.memory->notes) std::cout << note << "\n";
    }
    std::cout << "wrote report.json, ops.csv, report.html and trace.json (open in ui.perfetto.dev) to "
              << out_dir.string() << "\n";
  }
  return 0;
}

}  // namespace polyarch::cli
