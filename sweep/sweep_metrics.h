#pragma once
// The value of a kept metric (sweep_spec.h: sweep_keepable_metrics()) for one run, as the results
// table stores it, and its column type there.
#include <string>

#include "sim/result.h"
#include "sweep/sqlite_db.h"

namespace polyarch::sweep {

// total_cycles, latency_s, energy_j, avg_power_w, dram_bytes_read, dram_bytes_written as the
// summary has them, and the derived metrics:
//   utilization       ops' utilization weighted by their latency (what `polyarch diff` compares)
//   edp_js            energy-delay product, energy_j x latency_s
//   tops_per_w        2 x MACs / energy_j / 1e12 (tera-operations per second per watt)
//   peak_temp_c       the thermal model's hottest block
//   energy_by_action  the summary's joules by action as a JSON object
// Null where the run has no value (no energy model, no thermal model, no ops).
SqlValue result_metric(const sim::RunResult& result, const std::string& metric);

// "INTEGER", "REAL" or "TEXT".
const char* metric_column_type(const std::string& metric);

}  // namespace polyarch::sweep
