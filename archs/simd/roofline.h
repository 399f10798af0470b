#pragma once
// What bound a simd op and where it sits on the roofline: its arithmetic intensity, attained
// FLOP/s and the unit's ceilings, for report.json's `bound` and `roofline` fields.
#include <cstdint>

#include <nlohmann/json.hpp>

#include "archs/simd/kernel_plan.h"
#include "archs/simd/memory_view.h"
#include "archs/simd/params.h"
#include "mapping/space/mapping_problem.h"

namespace polyarch::archs::simd {

// DRAM when moving the op's DRAM bytes at full bandwidth takes at least half its time; latency
// when at least half of it lies outside the steps (launch, fetch latency, pipeline fill);
// otherwise the limit that set most of the step cycles.
Bound op_bound(const KernelPlan& plan, const MemoryView& memory, int64_t total_cycles);

// The same bound as mapping search and `compile --explain` name it (bound_class's word), so the
// estimate and the run say the same thing.
mapping::Bound mapping_bound(Bound bound);

nlohmann::ordered_json roofline_json(const SimdParams& params, const KernelPlan& plan,
                                     const MemoryView& memory, double clock_ghz,
                                     int64_t total_cycles);

}  // namespace polyarch::archs::simd
