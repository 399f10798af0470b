#pragma once
// What the simd kind's mapping spaces (GEMM tilings: gemm_space.h; attention: attention_space.h)
// share: each point is a kernel plan, priced alike. The cost is estimate_cycles of the plan on the
// unit's clock (launch overhead included where the plan carries it), the bound by the run's
// rule on those cycles (so explain and run name the same one), and simd_op_energy of the plan's
// activity over that latency.
#include "archs/simd/kernel_plan.h"
#include "archs/simd/memory_view.h"
#include "archs/simd/params.h"
#include "archs/unit_search.h"
#include "mapping/space/mapping_problem.h"

namespace polyarch::archs::simd {

class SimdMappingProblem : public mapping::MappingProblem {
 public:
  // The kernel plan of a valid point, described for the report.
  virtual KernelPlan plan(const mapping::MappingPoint& point) const = 0;
};

// A plan's cost as every simd mapping space prices it.
mapping::MappingCost simd_plan_cost(const SimdParams& params, const KernelPlan& plan,
                                    const MemoryView& memory, double clock_ghz,
                                    const MappingEnergy& energy);

}  // namespace polyarch::archs::simd
