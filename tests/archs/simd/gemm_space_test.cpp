#include "archs/simd/gemm_space.h"

#include <gtest/gtest.h>

#include "mapping/search/searchers.h"
#include "sim/memory/memory_view.h"
#include "tests/archs/simd/simd_fixture.h"

namespace polyarch::archs::simd {
namespace {

GemmProblem fp16_gemm(int64_t m, int64_t n, int64_t k) {
  return test::dense_problem(m, n, k, ir::DType::kFp16);
}

// ResNet-50's 3-channel 7x7 stem at batch 8: 49 taps of 3 channels on the synchronous MMA.
GemmProblem fp16_stem() {
  GemmProblem stem = fp16_gemm(8 * 112 * 112, 64, 147);
  stem.k_taps = 49;
  stem.lane_k_taps = 49;
  stem.sync_engine = true;
  return stem;
}

// The generic exhaustive search over the simd space finds the tiling the kind's own search
// (plan_gemm) finds: same estimated cycles, on GEMMs, a GEMV, a skinny split-K case and a
// convolution stepped tap by tap on the synchronous MMA (whose narrowest K slice is invalid).
TEST(SimdGemmSpace, ExhaustiveSearchMatchesTheKindsOwnTilingSearch) {
  const SocConfig soc = test::load_shipped("h100_like.yaml");
  const SimdParams params = test::simd_params_of(soc);
  const double clock_ghz = params.clock_ghz.value_or(soc.clock_ghz);
  const MemoryView memory =
      sim::memory_view(soc.dram.bandwidth_gbps * 1e9, soc.dram.latency_ns * 1e-9, clock_ghz);
  for (const GemmProblem& problem :
       {fp16_gemm(512, 768, 768), fp16_gemm(512, 3072, 768), fp16_gemm(1, 4096, 4096),
        fp16_gemm(64, 64, 16384), fp16_stem()}) {
    const SimdGemmMappingProblem space(params, problem, memory, clock_ghz);
    const mapping::SearchResult best = mapping::exhaustive_search(space, mapping::Objective{});
    ASSERT_TRUE(best.found());
    const KernelPlan own = plan_gemm(params, problem, memory);
    const int64_t own_cycles =
        estimate_cycles(own, memory.dram_bytes_per_cycle, memory.dram_latency_cycles);
    EXPECT_NEAR(best.best_cost.latency_s * clock_ghz * 1e9, static_cast<double>(own_cycles), 0.5)
        << problem.m << "x" << problem.n << "x" << problem.k << ": "
        << space.space().describe(best.best);
  }
}

TEST(SimdGemmSpace, AnnealingGetsWithinFivePercentOfExhaustive) {
  const SocConfig soc = test::load_shipped("h100_like.yaml");
  const SimdParams params = test::simd_params_of(soc);
  const double clock_ghz = params.clock_ghz.value_or(soc.clock_ghz);
  const MemoryView memory =
      sim::memory_view(soc.dram.bandwidth_gbps * 1e9, soc.dram.latency_ns * 1e-9, clock_ghz);
  const SimdGemmMappingProblem space(params, fp16_gemm(512, 3072, 768), memory, clock_ghz);
  const double optimum = mapping::exhaustive_search(space, mapping::Objective{}).best_score;
  const mapping::SearchResult annealed =
      mapping::annealing_search(space, mapping::Objective{}, {.seed = 1, .max_evaluations = 400});
  EXPECT_LE(annealed.best_score, optimum * 1.05) << "seed 1";
}

}  // namespace
}  // namespace polyarch::archs::simd
