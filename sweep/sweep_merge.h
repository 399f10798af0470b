#pragma once
// `polyarch merge OUT.db IN.db...`: joins sweep databases written by `polyarch sweep --shard`
// (or by separate runs of the same sweep) into one. The inputs must come from the same sweep:
// schema, point parameters, kept metrics, base arch file and objectives all equal, otherwise
// nothing is written and it is a bad-input error. A (point, workload) result present in several
// inputs is kept once (the first input's), with its op rows; an error is kept only where no
// input has a result. The Pareto front is recomputed over the merged results and the exports
// (points.csv, op_results.csv, dashboard.html) are written next to OUT.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

namespace polyarch::sweep {

struct MergeSummary {
  int64_t points = 0;
  int64_t results = 0;                       // in OUT after the merge
  int64_t duplicate_results = 0;             // results already in OUT, not copied again
  int64_t errors = 0;                        // (point, workload) pairs that failed in every input
  std::optional<std::size_t> pareto_points;  // nullopt: the sweep has no objectives
};

// An existing OUT is merged into too (it must match the inputs like they match each other).
MergeSummary merge_sweep_databases(const std::filesystem::path& out,
                                   const std::vector<std::filesystem::path>& inputs);

}  // namespace polyarch::sweep
