#include "archs/simd/step_cost.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "base/checked_math.h"

namespace polyarch::archs::simd {

namespace {

int64_t cycles_for(int64_t amount, int64_t per_cycle) {
  if (amount <= 0) return 0;
  return per_cycle > 0 ? ceil_div(amount, per_cycle) : 0;
}

}  // namespace

KernelStep step_cost(const SimdParams& params, const CoreWork& work) {
  const int64_t matrix = cycles_for(work.matrix_macs, work.matrix_macs_per_cycle);
  const int64_t vector = cycles_for(work.vector_ops, work.vector_ops_per_cycle);
  const int64_t sfu = cycles_for(work.sfu_ops, params.vector.sfu_lanes);
  const int64_t l2_total = checked_mul(work.l2_bytes, work.active_cores, "L2 bytes");
  // Candidates in priority order: on a tie the earlier one is reported as the bound.
  std::vector<std::pair<int64_t, Bound>> limits;
  if (work.serialize_matrix_and_vector) {
    const int64_t serial = matrix + vector + sfu;
    const Bound largest =
        matrix >= vector && matrix >= sfu ? Bound::kMatrix
                                          : (vector >= sfu ? Bound::kVector : Bound::kSfu);
    limits.push_back({serial, largest});
  } else {
    limits.push_back({matrix, Bound::kMatrix});
    limits.push_back({vector, Bound::kVector});
    limits.push_back({sfu, Bound::kSfu});
  }
  limits.push_back(
      {cycles_for(work.scratchpad_bytes, params.scratchpad.bytes_per_cycle), Bound::kScratchpad});
  limits.push_back({cycles_for(work.l2_bytes, params.core_bytes_per_cycle), Bound::kCorePort});
  limits.push_back({cycles_for(l2_total, params.l2.bytes_per_cycle), Bound::kL2});
  limits.push_back({work.latency_floor_cycles, Bound::kLatency});
  KernelStep step;
  step.cycles = 0;
  step.bound = limits.front().second;
  for (const auto& [cycles, bound] : limits) {
    if (cycles > step.cycles) {
      step.cycles = cycles;
      step.bound = bound;
    }
  }
  step.cycles = std::max<int64_t>(step.cycles, 1);
  return step;
}

}  // namespace polyarch::archs::simd
