#pragma once
// The simd kind's attention mapping space for the generic search (mapping/space/): the form and
// the flash tiling of attention_mapper.h, the choices plan_attention makes on its own.
//   form       fused | unfused         one flash-style kernel, or the QKᵀ GEMM, a softmax over the
//                                      scores in DRAM and the PV GEMM (three launches)
//   block_q    16, 32, 64, 128, 256    Br: queries per work item
//   block_kv   32, 64, 128, 256        Bc: keys per step of the online softmax
//   kv_split   1, 2, 4 ... 64          work items per query block along the keys (flash decoding)
// A fused point is valid where its S block and O accumulator fit the registers and Q with
// double-buffered K/V the scratchpad (plan_flash_tiling); the unfused form has one point (its
// GEMMs take plan_gemm's tilings). The cost is simd_plan_cost with each form's launches.
#include "archs/simd/attention_mapper.h"
#include "archs/simd/simd_mapping_problem.h"
#include "compiler/ir/op.h"

namespace polyarch::archs::simd {

class SimdAttentionMappingProblem final : public SimdMappingProblem {
 public:
  SimdAttentionMappingProblem(SimdParams params, ir::AttentionAttrs attention, ir::DType dtype,
                              MemoryView memory, double clock_ghz, int64_t launch_cycles,
                              MappingEnergy energy = {});

  const mapping::MappingSpace& space() const override { return space_; }
  bool valid(const mapping::MappingPoint& point) const override;
  mapping::MappingCost evaluate(const mapping::MappingPoint& point) const override;
  KernelPlan plan(const mapping::MappingPoint& point) const override;

 private:
  bool unfused(const mapping::MappingPoint& point) const;
  FlashTiling tiling(const mapping::MappingPoint& point) const;

  SimdParams params_;
  ir::AttentionAttrs attention_;
  ir::DType dtype_;
  MemoryView memory_;
  double clock_ghz_;
  int64_t launch_cycles_;
  MappingEnergy energy_;
  mapping::MappingSpace space_;
};

// The attention op's space with its decision key; nullopt for other ops.
std::optional<KindMappingQuery<SimdAttentionMappingProblem>> simd_attention_query(
    const SimdParams& params, const ir::Op& op, const MemoryView& memory, double clock_ghz,
    const MappingEnergy& energy);

// An attention op's plan: with `search` the searched form and tiling (recorded in
// mapping.search), otherwise plan_attention's own.
KernelPlan plan_attention_for_run(const SimdParams& params, const ir::Op& op,
                                  const MemoryView& memory, double clock_ghz, UnitSearch* search);

}  // namespace polyarch::archs::simd
