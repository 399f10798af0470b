#pragma once
// The simd kind's GEMM tiling search (gemm_mapper.h) as a mapping space for the generic search
// (mapping/space/mapping_problem.h). Dimensions, in the order plan_gemm walks them (so an
// exhaustive search picks the same tiling, ties included): matrix_engine (1, 0), bm (1 ... 256),
// bn (16 ... 256), bk_bytes (32, 64, 128: K slices of whole memory transactions), split_k (1 ...
// 32). Valid when plan_gemm_tiling finds the tiling feasible (accumulators within the register
// budget, two staging buffers in the scratchpad) and the engine exists and takes the tile
// height. The cost is estimate_cycles on the unit's clock (the kernel's launch overhead, the
// same for every tiling, left out); energy is simd_op_energy of the tiling's activity (lane and
// engine operations, register-file, scratchpad, L2 and DRAM bytes) over that latency.
#include "archs/simd/gemm_mapper.h"
#include "archs/unit_search.h"
#include "compiler/ir/op.h"
#include "mapping/space/mapping_problem.h"

namespace polyarch::archs::simd {

class SimdGemmMappingProblem final : public mapping::MappingProblem {
 public:
  SimdGemmMappingProblem(SimdParams params, GemmProblem problem, MemoryView memory,
                         double clock_ghz, MappingEnergy energy = {});

  const mapping::MappingSpace& space() const override { return space_; }
  bool valid(const mapping::MappingPoint& point) const override;
  mapping::MappingCost evaluate(const mapping::MappingPoint& point) const override;

  GemmTiling tiling(const mapping::MappingPoint& point) const;
  // The kernel plan of a valid point, described for the report.
  KernelPlan plan(const mapping::MappingPoint& point) const;

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
