#include "archs/simd/gemm_space.h"

#include <algorithm>

namespace polyarch::archs::simd {

namespace {

enum Dim : std::size_t { kEngine, kBm, kBn, kBkBytes, kSplit };

}  // namespace

SimdGemmMappingProblem::SimdGemmMappingProblem(SimdParams params, GemmProblem problem,
                                               MemoryView memory, double clock_ghz)
    : params_(std::move(params)),
      problem_(problem),
      memory_(memory),
      clock_ghz_(clock_ghz),
      space_({{"matrix_engine", {1, 0}, {"true", "false"}},
              {"bm", {1, 4, 16, 32, 64, 128, 256}, {}},
              {"bn", {16, 32, 64, 128, 256}, {}},
              {"bk_bytes", {32, 64, 128}, {}},
              {"split_k", {1, 2, 3, 4, 6, 8, 12, 16, 32}, {}}}) {}

GemmTiling SimdGemmMappingProblem::tiling(const mapping::MappingPoint& point) const {
  const int64_t elem = ir::dtype_bytes(problem_.dtype);
  return {.bm = space_.value(point, kBm),
          .bn = space_.value(point, kBn),
          .bk = std::max<int64_t>(1, space_.value(point, kBkBytes) / elem),
          .split_k = space_.value(point, kSplit),
          .matrix_engine = space_.value(point, kEngine) == 1};
}

bool SimdGemmMappingProblem::valid(const mapping::MappingPoint& point) const {
  const GemmTiling chosen = tiling(point);
  if (chosen.matrix_engine) {
    if (params_.core_matrix_macs_per_cycle(problem_.dtype) <= 0) return false;
    if (chosen.bm < params_.matrix_engine.min_tile_m) return false;
  }
  return plan_gemm_tiling(params_, problem_, chosen, false).has_value();
}

mapping::MappingCost SimdGemmMappingProblem::evaluate(const mapping::MappingPoint& point) const {
  const std::optional<KernelPlan> plan = plan_gemm_tiling(params_, problem_, tiling(point), false);
  mapping::MappingCost cost;
  if (!plan) {
    cost.latency_s = std::numeric_limits<double>::infinity();
    return cost;
  }
  const int64_t cycles =
      estimate_cycles(*plan, memory_.dram_bytes_per_cycle, memory_.dram_latency_cycles);
  cost.latency_s = static_cast<double>(cycles) / (clock_ghz_ * 1e9);
  // Memory-bound when ideal-DRAM cycles explain less than the estimate.
  cost.bound = plan->compute_cycles >= cycles ? mapping::Bound::kCompute : mapping::Bound::kDram;
  return cost;
}

}  // namespace polyarch::archs::simd
