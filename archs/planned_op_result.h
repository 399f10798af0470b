#pragma once
// The OpResult fields a kind fills alike when its plan counts flops against a peak: the clock,
// compute cycles, MACs, utilization (the plan's flops over what the peak allows in the cycles the
// op took), mapping efficiency, DRAM bytes and the plan's mapping. The kind adds its bound,
// roofline and activity.
#include <cstdint>

#include "sim/result.h"

namespace polyarch::archs {

template <class Plan>
sim::OpResult planned_op_result(const Plan& plan, int64_t total_cycles, double clock_ghz) {
  sim::OpResult result;
  result.unit_clock_ghz = clock_ghz;
  result.compute_cycles = plan.compute_cycles;
  result.macs = plan.macs;
  const double peak = plan.peak_flops_per_cycle * static_cast<double>(total_cycles);
  result.utilization = peak > 0 ? static_cast<double>(plan.flops) / peak : 0.0;
  result.mapping_efficiency = plan.mapping_efficiency;
  result.dram_bytes_read = plan.dram_read_bytes;
  result.dram_bytes_written = plan.dram_write_bytes;
  result.mapping = plan.mapping;
  return result;
}

}  // namespace polyarch::archs
