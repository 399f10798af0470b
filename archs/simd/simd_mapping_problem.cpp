#include "archs/simd/simd_mapping_problem.h"

#include "archs/simd/cost_model.h"
#include "archs/simd/energy.h"
#include "archs/simd/plan_activity.h"
#include "archs/simd/roofline.h"

namespace polyarch::archs::simd {

mapping::MappingCost simd_plan_cost(const SimdParams& params, const KernelPlan& plan,
                                    const MemoryView& memory, double clock_ghz,
                                    const MappingEnergy& energy) {
  const int64_t cycles =
      estimate_cycles(plan, memory.dram_bytes_per_cycle, memory.dram_latency_cycles);
  mapping::MappingCost cost;
  cost.latency_s = static_cast<double>(cycles) / (clock_ghz * 1e9);
  cost.bound = mapping_bound(op_bound(plan, memory, cycles));
  sim::OpResult planned =
      planned_op_result(plan.macs, plan.dram_read_bytes, plan.dram_write_bytes, cost.latency_s);
  const SimdActivity activity = record_plan_activity(plan, params, planned);
  cost.energy_j = energy.planned_joules(simd_op_energy, params, planned, activity);
  return cost;
}

}  // namespace polyarch::archs::simd
