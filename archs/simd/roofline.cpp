#include "archs/simd/roofline.h"

#include <map>

#include "archs/planned_op_result.h"
#include "sim/roofline.h"

namespace polyarch::archs::simd {

Bound op_bound(const KernelPlan& plan, const MemoryView& memory, int64_t total_cycles) {
  // Each limit must hold for at least half the op's time: a rule that flips on a few percent
  // would name different bounds for the estimate and the run of the same mapping.
  const double total = static_cast<double>(total_cycles);
  if (memory.dram_bytes_per_cycle > 0) {
    const double dram_cycles = static_cast<double>(plan.dram_read_bytes + plan.dram_write_bytes) /
                               memory.dram_bytes_per_cycle;
    if (2.0 * dram_cycles >= total) return Bound::kDram;
  }
  // Launch, fetch latency and pipeline fill: the time outside the steps.
  if (2 * (total_cycles - plan.compute_cycles) >= total_cycles) return Bound::kLatency;
  std::map<Bound, int64_t> cycles_by_bound;
  for (const StepBlock& block : plan.blocks) {
    for (const StepRun& run : block.runs) {
      cycles_by_bound[run.tile.bound] += run.tile.cycles * run.count * block.repeat;
    }
  }
  Bound bound = Bound::kLatency;
  int64_t most = -1;
  for (const auto& [candidate, cycles] : cycles_by_bound) {
    if (cycles > most) {
      most = cycles;
      bound = candidate;
    }
  }
  return bound;
}

mapping::Bound mapping_bound(Bound bound) {
  switch (bound) {
    case Bound::kMatrix:
    case Bound::kVector:
    case Bound::kSfu:
      return mapping::Bound::kCompute;
    case Bound::kScratchpad:
    case Bound::kCorePort:
    case Bound::kL2:
      return mapping::Bound::kL2;
    case Bound::kDram:
      return mapping::Bound::kDram;
    case Bound::kLatency:
      return mapping::Bound::kLatency;
  }
  return mapping::Bound::kLatency;
}

nlohmann::ordered_json roofline_json(const SimdParams& params, const KernelPlan& plan,
                                     const MemoryView& memory, double clock_ghz,
                                     int64_t total_cycles) {
  const double cycles_per_second = clock_ghz * 1e9;
  nlohmann::ordered_json roofline =
      sim::roofline_json(planned_roofline_point(plan, memory, total_cycles, clock_ghz));
  roofline["l2_bytes_per_s"] = static_cast<double>(params.l2.bytes_per_cycle) * cycles_per_second;
  return roofline;
}

}  // namespace polyarch::archs::simd
