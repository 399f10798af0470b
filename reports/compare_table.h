#pragma once
// `polyarch compare`: one workload on several architectures, as a terminal table and as
// compare.csv (one plot-ready row per architecture). An architecture that could not run the
// workload keeps its row, saying why.
#include <optional>
#include <string>
#include <vector>

#include "sim/result.h"

namespace polyarch::reports {

struct CompareEntry {
  std::string arch_file;
  std::optional<sim::RunResult> result;  // null when it could not run the workload ...
  std::string error;                     // ... and this says why
};

// arch, the types its ops ran in (marked * with a note under the table where a unit converted
// ops it does not compute), latency, energy, average power, attained FLOP/s, mean utilisation,
// DRAM bytes, the bound that held longest, the unit that was busiest and the longest op's
// mapping; a failed entry's row is its reason.
std::string compare_text(const std::vector<CompareEntry>& entries);

// The CSV: arch, workload (quoted: an inline spec has commas), latency_s, total_cycles,
// clock_ghz, energy_j, avg_power_w, flops, attained_flops_per_s, dram_bytes, mean_utilization,
// bound, busiest_unit, error, dtype, converted ("fp32->int8 (N ops)", ...), mapping (the longest
// op's).
std::string compare_csv(const std::string& workload, const std::vector<CompareEntry>& entries);

}  // namespace polyarch::reports
