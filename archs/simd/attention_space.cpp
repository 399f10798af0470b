#include "archs/simd/attention_space.h"

#include <limits>

#include "mapping/cache/op_shape_key.h"

namespace polyarch::archs::simd {

namespace {

enum AttentionDim : std::size_t { kForm, kBlockQ, kBlockKv, kKvSplit };

// The tilings searched: attention_mapper.h's flash_candidates (a stated library kernel's
// launch is its one point), fused or unfused.
mapping::MappingSpace attention_space(const FlashCandidates& candidates) {
  return mapping::MappingSpace({{"form", {0, 1}, {"fused", "unfused"}},
                                {"block_q", candidates.block_q, {}},
                                {"block_kv", candidates.block_kv, {}},
                                {"kv_split", candidates.kv_split, {}}});
}

}  // namespace

SimdAttentionMappingProblem::SimdAttentionMappingProblem(SimdParams params,
                                                         ir::AttentionAttrs attention,
                                                         ir::DType dtype, MemoryView memory,
                                                         double clock_ghz, int64_t launch_cycles,
                                                         MappingEnergy energy)
    : params_(std::move(params)),
      attention_(attention),
      dtype_(dtype),
      memory_(memory),
      clock_ghz_(clock_ghz),
      launch_cycles_(launch_cycles),
      energy_(std::move(energy)),
      space_(attention_space(flash_candidates(params_, attention_))) {}

bool SimdAttentionMappingProblem::unfused(const mapping::MappingPoint& point) const {
  return space_.value(point, kForm) == 1;
}

FlashTiling SimdAttentionMappingProblem::tiling(const mapping::MappingPoint& point) const {
  return {space_.value(point, kBlockQ), space_.value(point, kBlockKv),
          space_.value(point, kKvSplit)};
}

bool SimdAttentionMappingProblem::valid(const mapping::MappingPoint& point) const {
  // The unfused form's GEMMs choose their own tilings: it is one point, the first tiling's.
  if (unfused(point)) {
    return !runs_only_fused(attention_) && point[kBlockQ] == 0 && point[kBlockKv] == 0 &&
           point[kKvSplit] == 0;
  }
  return plan_flash_tiling(params_, attention_, dtype_, tiling(point), memory_.dram_latency_cycles)
      .has_value();
}

KernelPlan SimdAttentionMappingProblem::plan(const mapping::MappingPoint& point) const {
  if (unfused(point)) {
    KernelPlan plan = plan_unfused_attention(params_, attention_, dtype_, memory_, launch_cycles_);
    plan.launch_cycles = 0;  // its launches are steps
    return plan;
  }
  KernelPlan plan =
      *plan_flash_tiling(params_, attention_, dtype_, tiling(point), memory_.dram_latency_cycles);
  plan.launch_cycles = launch_cycles_;
  return plan;
}

mapping::MappingCost SimdAttentionMappingProblem::evaluate(
    const mapping::MappingPoint& point) const {
  if (!valid(point)) {
    mapping::MappingCost cost;
    cost.latency_s = std::numeric_limits<double>::infinity();
    return cost;
  }
  return simd_plan_cost(params_, plan(point), memory_, clock_ghz_, energy_);
}

std::optional<KindMappingQuery<SimdAttentionMappingProblem>> simd_attention_query(
    const SimdParams& params, const ir::Op& op, const MemoryView& memory, double clock_ghz,
    const MappingEnergy& energy) {
  const auto* attention = std::get_if<ir::AttentionAttrs>(&op.attrs);
  if (attention == nullptr) return std::nullopt;
  const ir::DType dtype = params.run_dtype(op);
  return KindMappingQuery<SimdAttentionMappingProblem>{
      std::make_shared<const SimdAttentionMappingProblem>(
          params, *attention, dtype, memory, clock_ghz, params.launch_cycles(clock_ghz),
          energy),
      mapping::op_shape_key(op, dtype) + channel_key(clock_ghz, memory)};
}

KernelPlan plan_attention_for_run(const SimdParams& params, const ir::Op& op,
                                  const MemoryView& memory, double clock_ghz, UnitSearch* search) {
  return searched_plan(
      search,
      [&](const MappingEnergy& energy) {
        return simd_attention_query(params, op, memory, clock_ghz, energy);
      },
      [&] {
        return plan_attention(params, std::get<ir::AttentionAttrs>(op.attrs),
                              params.run_dtype(op), memory,
                              params.launch_cycles(clock_ghz));
      });
}

}  // namespace polyarch::archs::simd
