#pragma once
// The simd kind's GEMM tiling search (gemm_mapper.h) as a mapping space for the generic search
// (mapping/space/mapping_problem.h). Dimensions, in the order plan_gemm walks them (so an
// exhaustive search picks the same tiling, ties included): matrix_engine (1, 0), bm (1 ... 256),
// bn (16 ... 256), bk_bytes (32, 64, 128: K slices of whole memory transactions), split_k (1 ...
// 32). Valid when plan_gemm_tiling finds the tiling feasible (accumulators within the register
// budget, two staging buffers in the scratchpad) and the engine exists and takes the tile
// height. The cost is simd_plan_cost (simd_mapping_problem.h) of the tiling's plan, without the
// kernel's launch overhead (the same for every tiling).
#include "archs/simd/gemm_mapper.h"
#include "archs/simd/simd_mapping_problem.h"
#include "compiler/ir/op.h"

namespace polyarch::archs::simd {

class SimdGemmMappingProblem final : public SimdMappingProblem {
 public:
  SimdGemmMappingProblem(SimdParams params, GemmProblem problem, MemoryView memory,
                         double clock_ghz, MappingEnergy energy = {});

  const mapping::MappingSpace& space() const override { return space_; }
  bool valid(const mapping::MappingPoint& point) const override;
  mapping::MappingCost evaluate(const mapping::MappingPoint& point) const override;

  GemmTiling tiling(const mapping::MappingPoint& point) const;
  KernelPlan plan(const mapping::MappingPoint& point) const override;

 private:
  SimdParams params_;
  GemmProblem problem_;
  MemoryView memory_;
  double clock_ghz_;
  MappingEnergy energy_;
  mapping::MappingSpace space_;
};

// The op's tiling space with its decision key; nullopt for ops other than GEMM and convolution.
std::optional<KindMappingQuery<SimdGemmMappingProblem>> simd_mapping_query(
    const SimdParams& params, const ir::Op& op, const MemoryView& memory, double clock_ghz,
    const MappingEnergy& energy);

// A GEMM's or convolution's plan: with `search` the searched tiling (recorded in
// mapping.search), otherwise plan_gemm's own.
KernelPlan plan_gemm_for_run(const SimdParams& params, const ir::Op& op, const MemoryView& memory,
                             double clock_ghz, UnitSearch* search);

}  // namespace polyarch::archs::simd
