// `polyarch compare`: one workload on several architectures, side by side.
#include <iostream>

#include "base/error.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/mapping_search_options.h"
#include "cli/pipeline_flags.h"
#include "driver/run.h"
#include "reports/compare_table.h"
#include "reports/json_report.h"
#include "reports/output_files.h"

namespace polyarch::cli {

namespace {

constexpr const char* kCompareHelp =
    R"(usage: polyarch compare --workload W --arch A.yaml --arch B.yaml ... [--out DIR]
                        [--mapping fixed|searched] [--search S [--objective O]
                        [--search-budget N] [--cache-dir DIR|--no-cache]]

Runs W on every architecture and prints, side by side: latency, energy, average power,
attained TFLOP/s, mean utilisation, DRAM traffic, the bound that held longest and the busiest
unit. W is a workload file or an inline kernel: gemm:M,N,K or attention:B,H,S,D[,causal], each
with an optional :dtype (gemm:4096,4096,4096:bf16). With --out, writes DIR/compare.csv (one
plot-ready row per architecture) and DIR/<arch name>/report.json for each.

An architecture that cannot run W keeps its row, which names the arch file and says why; the
others are still run and written. The exit code is then that of the failure (2 for bad input
such as an op no unit runs, 1 for a runtime error), or 0 when every architecture ran.

Every op's mapping is searched unless --mapping fixed runs each unit's configured one. The
mapping options (--mapping, --search, --objective, --search-budget, --cache-dir, --no-cache) and
the compiler-pass flags are those of `polyarch run` (see run --help) and apply to every
architecture.
)";

}  // namespace

int compare_command(const CommandArgs& args) {
  if (wants_help(args)) {
    std::cout << kCompareHelp;
    return 0;
  }
  std::vector<OptionSpec> specs = {{"workload"}, {"arch", true, true}, {"out"}};
  for (OptionSpec& spec : mapping_search_option_specs()) specs.push_back(std::move(spec));
  for (OptionSpec& spec : pipeline_option_specs()) specs.push_back(std::move(spec));
  Arguments parsed(args, specs);
  const std::vector<std::string> archs = parsed.values("arch");
  if (archs.empty()) throw_bad_input({}, "compare needs at least one --arch (see --help)");
  const std::string workload = parsed.required("workload");
  driver::RunRequest request;
  request.workload_path = workload;
  request.mapping_search = driver::search_policy(mapping_search_options(parsed), request.seed);
  const driver::PassFlags flags = pass_flags(parsed);
  request.compile = driver::pipeline_options(flags, nullptr);
  request.conv_layout_from_target = driver::layout_from_target(flags);

  std::vector<reports::CompareEntry> entries;
  int exit_code = 0;
  for (const std::string& arch : archs) {
    reports::CompareEntry entry{arch, std::nullopt, ""};
    request.arch_path = arch;
    try {
      entry.result = driver::run(request);
    } catch (const Error& error) {
      entry.error = error.what();
      std::cerr << "polyarch: error: " << arch << ": " << error.what() << "\n";
      exit_code = std::max(exit_code, error.kind() == ErrorKind::kBadInput ? 2 : 1);
    }
    entries.push_back(std::move(entry));
  }
  std::cout << reports::compare_text(entries);
  if (auto out = parsed.value("out")) {
    for (const reports::CompareEntry& entry : entries) {
      if (!entry.result) continue;
      reports::write_files_atomically(
          std::filesystem::path(*out) / entry.result->provenance.arch_name,
          {{"report.json", reports::report_json(*entry.result).dump(2) + "\n"}});
    }
    reports::write_files_atomically(*out, {{"compare.csv", reports::compare_csv(workload, entries)}});
  }
  return exit_code;
}

}  // namespace polyarch::cli
