#pragma once
// An op's roofline coordinates as report.json's `ops[].roofline` holds them: the work, the
// traffic, what the run attained and the ceilings it ran under. Every kind writes these keys the
// same way, then adds its own ceilings (an L2, a NoC port).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>

namespace polyarch::sim {

struct RooflinePoint {
  int64_t flops = 0;
  int64_t dram_bytes = 0;
  double seconds = 0.0;  // the op's simulated latency
  double peak_flops_per_s = 0.0;
  std::optional<double> dram_bytes_per_s;  // null without a DRAM bandwidth
};

// flops, dram_bytes, ops_per_byte (null without traffic), attained_flops_per_s,
// attained_dram_bytes_per_s, peak_flops_per_s, dram_bytes_per_s, in that order.
nlohmann::ordered_json roofline_json(const RooflinePoint& point);

}  // namespace polyarch::sim
