#pragma once
// The simd kind's GEMM tiling search (gemm_mapper.h) as a mapping space for the generic search
// (mapping/space/mapping_problem.h). Dimensions, in the order plan_gemm walks them (so an
// exhaustive search picks the same tiling, ties included): matrix_engine (1, 0), bm (1 ... 256),
// bn (16 ... 256), bk_bytes (32, 64, 128: K slices of whole memory transactions), split_k (1 ...
// 32). Valid when plan_gemm_tiling finds the tiling feasible (accumulators within the register
// budget, two staging buffers in the scratchpad) and the engine exists and takes the tile
// height. The cost is estimate_cycles on the unit's clock; energy is not priced here (0).
#include "archs/simd/gemm_mapper.h"
#include "mapping/space/mapping_problem.h"

namespace polyarch::archs::simd {

class SimdGemmMappingProblem final : public mapping::MappingProblem {
 public:
  SimdGemmMappingProblem(SimdParams params, GemmProblem problem, MemoryView memory,
                         double clock_ghz);

  const mapping::MappingSpace& space() const override { return space_; }
  bool valid(const mapping::MappingPoint& point) const override;
  mapping::MappingCost evaluate(const mapping::MappingPoint& point) const override;

  GemmTiling tiling(const mapping::MappingPoint& point) const;

 private:
  SimdParams params_;
  GemmProblem problem_;
  MemoryView memory_;
  double clock_ghz_;
  mapping::MappingSpace space_;
};

}  // namespace polyarch::archs::simd
