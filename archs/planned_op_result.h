#pragma once
// The OpResult fields a kind fills alike when its plan counts flops against a peak: the clock,
// compute cycles, MACs, utilization (the plan's flops over what the peak allows in the cycles the
// op took), mapping efficiency, DRAM bytes and the plan's mapping. The kind adds its bound,
// roofline and activity.
#include <cstdint>

#include "sim/memory/memory_view.h"
#include "sim/result.h"
#include "sim/roofline.h"

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

// The same plan's roofline coordinates (sim/roofline.h) for a run of `total_cycles`; the kind
// adds its own ceilings (an L2, a NoC port) to the JSON.
template <class Plan>
sim::RooflinePoint planned_roofline_point(const Plan& plan, const sim::MemoryView& memory,
                                          int64_t total_cycles, double clock_ghz) {
  const double cycles_per_second = clock_ghz * 1e9;
  sim::RooflinePoint point;
  point.flops = plan.flops;
  point.dram_bytes = plan.dram_read_bytes + plan.dram_write_bytes;
  point.seconds = static_cast<double>(total_cycles) / cycles_per_second;
  point.peak_flops_per_s = plan.peak_flops_per_cycle * cycles_per_second;
  if (memory.dram_bytes_per_cycle > 0) {
    point.dram_bytes_per_s = memory.dram_bytes_per_cycle * cycles_per_second;
  }
  return point;
}

}  // namespace polyarch::archs
