#include "archs/simd/gemm_space.h"

#include <algorithm>
#include <limits>

#include "archs/simd/cost_model.h"
#include "mapping/cache/op_shape_key.h"

namespace polyarch::archs::simd {

namespace {

enum GemmDim : std::size_t { kEngine, kBm, kBn, kBkBytes, kSplit };

}  // namespace

SimdGemmMappingProblem::SimdGemmMappingProblem(SimdParams params, GemmProblem problem,
                                               MemoryView memory, double clock_ghz,
                                               MappingEnergy energy)
    : params_(std::move(params)),
      problem_(problem),
      memory_(memory),
      clock_ghz_(clock_ghz),
      energy_(std::move(energy)),
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
  if (!plan) {
    mapping::MappingCost cost;
    cost.latency_s = std::numeric_limits<double>::infinity();
    return cost;
  }
  return simd_plan_cost(params_, *plan, memory_, clock_ghz_, energy_);
}

KernelPlan SimdGemmMappingProblem::plan(const mapping::MappingPoint& point) const {
  return *plan_gemm_tiling(params_, problem_, tiling(point));
}

std::optional<KindMappingQuery<SimdGemmMappingProblem>> simd_mapping_query(
    const SimdParams& params, const ir::Op& op, const MemoryView& memory, double clock_ghz,
    const MappingEnergy& energy) {
  if (op.kind() != ir::OpKind::kGemm && op.kind() != ir::OpKind::kConv2d) return std::nullopt;
  const ir::DType dtype = params.run_dtype(op);
  return KindMappingQuery<SimdGemmMappingProblem>{
      std::make_shared<const SimdGemmMappingProblem>(
          params, simd_gemm_problem(params, op, dtype), memory, clock_ghz, energy),
      mapping::op_shape_key(op, dtype) + channel_key(clock_ghz, memory)};
}

KernelPlan plan_gemm_for_run(const SimdParams& params, const ir::Op& op, const MemoryView& memory,
                             double clock_ghz, UnitSearch* search) {
  return searched_plan(
      search,
      [&](const MappingEnergy& energy) {
        return simd_mapping_query(params, op, memory, clock_ghz, energy);
      },
      [&] {
        return plan_gemm(params, simd_gemm_problem(params, op, params.run_dtype(op)),
                         memory);
      });
}

}  // namespace polyarch::archs::simd
