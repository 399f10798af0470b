// `polyarch merge OUT.db IN.db...`: joins per-shard sweep databases (`sweep --shard i/N`).
#include <iostream>

#include "base/error.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "sweep/sweep_merge.h"

namespace polyarch::cli {

namespace {

constexpr const char* kMergeHelp = R"(usage: polyarch merge OUT.sqlite IN.sqlite [IN.sqlite ...]

Joins sweep databases of the same sweep (typically DIR/results-shard-i-of-N.sqlite from
`polyarch sweep S.yaml --shard i/N`) into OUT.sqlite: points and results once each (a result
present in several inputs is kept once), op rows, errors of pairs no input completed, and the
invocations. Inputs of another sweep (other parameters, kept metrics, base arch file or
objectives) are refused and nothing is written. Recomputes the Pareto front and writes
points.csv, op_results.csv and dashboard.html next to OUT. An existing OUT is merged into.
exit codes: 0 merged, 2 bad input (missing or mismatched database)
)";

}  // namespace

int merge_command(const CommandArgs& args) {
  if (wants_help(args)) {
    std::cout << kMergeHelp;
    return 0;
  }
  Arguments parsed(args, {});
  if (parsed.positionals().size() < 2) {
    throw_bad_input({}, "merge needs OUT.sqlite and at least one input database (see --help)");
  }
  std::vector<std::filesystem::path> inputs(parsed.positionals().begin() + 1,
                                            parsed.positionals().end());
  sweep::MergeSummary summary =
      sweep::merge_sweep_databases(parsed.positionals().front(), inputs);
  std::cout << "merged " << inputs.size() << " database(s) into " << parsed.positionals().front()
            << ": " << summary.points << " points, " << summary.results << " results ("
            << summary.duplicate_results << " duplicate(s) skipped), " << summary.errors
            << " failed pair(s)";
  if (summary.pareto_points) std::cout << ", Pareto front of " << *summary.pareto_points;
  std::cout << "\n";
  return 0;
}

}  // namespace polyarch::cli
