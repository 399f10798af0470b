// `matrix_engine.sparse_mn`: N:M structured weights at M/N times the engine rate, and pruned
// weights read compressed.
#include <gtest/gtest.h>

#include "archs/simd/cost_model.h"
#include "compiler/ir/weight_sparsity.h"
#include "tests/archs/simd/simd_fixture.h"
#include "tests/base/error_capture.h"

namespace polyarch::archs::simd::test {
namespace {

// h100_like with on-chip bandwidths so high that only the matrix engine limits a GEMM.
SimdParams compute_bound_2_4() {
  SimdParams params = simd_params_of(load_shipped("h100_like.yaml"));
  params.l2.bytes_per_cycle = int64_t{1} << 22;
  params.core_bytes_per_cycle = int64_t{1} << 20;
  params.scratchpad.bytes_per_cycle = int64_t{1} << 20;
  params.matrix_engine.sparse_n = 2;
  params.matrix_engine.sparse_m = 4;
  return params;
}

ir::Op pruned_gemm(int64_t n, int64_t m) {
  ir::Op op = gemm(8192, 8192, 8192);
  op.weight_sparsity = ir::WeightSparsity{static_cast<double>(n) / static_cast<double>(m), n, m};
  return op;
}

int64_t cycles(const SimdParams& params, const ir::Op& op) {
  return estimate_cycles(plan_op(params, op, MemoryView{}, 1.83), 0, 0);
}

TEST(SimdSparseEngine, TwoOfFourWeightsRunAtTwiceTheDenseRate) {
  const SimdParams params = compute_bound_2_4();
  const double dense = static_cast<double>(cycles(params, gemm(8192, 8192, 8192)));
  const double sparse = static_cast<double>(cycles(params, pruned_gemm(2, 4)));
  EXPECT_NEAR(dense / sparse, 2.0, 0.1) << dense << " vs " << sparse;
}

TEST(SimdSparseEngine, PatternsTheEngineCannotUseRunDense) {
  const SimdParams params = compute_bound_2_4();
  const int64_t dense = cycles(params, gemm(8192, 8192, 8192));
  EXPECT_EQ(cycles(params, pruned_gemm(4, 8)), dense);  // another M
  SimdParams no_sparse_engine = params;
  no_sparse_engine.matrix_engine.sparse_n = 0;
  no_sparse_engine.matrix_engine.sparse_m = 0;
  EXPECT_EQ(cycles(no_sparse_engine, pruned_gemm(2, 4)), dense);
}

TEST(SimdSparseEngine, PrunedWeightsAreReadCompressed) {
  SocConfig soc = load_shipped("h100_like.yaml");
  const SimdParams params = simd_params_of(soc);
  ir::Op dense = gemm(16, 4096, 4096);  // a GEMV-like op: the weights dominate DRAM traffic
  ir::Op pruned = dense;
  pruned.weight_sparsity = ir::WeightSparsity{0.5, 2, 4};
  const sim::OpResult dense_run = run_one(soc, params, dense);
  const sim::OpResult pruned_run = run_one(soc, params, pruned);
  const int64_t weight_bytes = 4096 * 4096 * 2;  // bf16
  EXPECT_EQ(dense_run.dram_bytes_read - pruned_run.dram_bytes_read,
            weight_bytes - ir::stored_weight_bytes(4096 * 4096, ir::DType::kFp16, *pruned.weight_sparsity));
  EXPECT_LT(seconds(pruned_run), seconds(dense_run));
}

TEST(SimdSparseEngine, SparseMnParsesAndRejectsMalformedPatterns) {
  const std::string unit = R"(name: t
clock_ghz: 1.0
memory: {dram: {bandwidth_gbps: 100}}
units:
  - name: gpu
    kind: simd
    count: 4
    vector: {lanes: 64}
    matrix_engine: {per_core: 2, macs_per_cycle: {fp16: 256}, sparse_mn: "PATTERN"}
    scratchpad: {kib: 128, bytes_per_cycle: 128}
    l2: {capacity_mib: 4, bytes_per_cycle: 1024}
    core_bytes_per_cycle: 64
)";
  const auto with = [&](const std::string& pattern) {
    std::string text = unit;
    text.replace(text.find("PATTERN"), 7, pattern);
    return text;
  };
  const SimdParams params =
      simd_params_of(parse_soc_config(parse_config_text(with("2:4"), "a.yaml")));
  EXPECT_EQ(params.matrix_engine.sparse_n, 2);
  EXPECT_EQ(params.matrix_engine.sparse_m, 4);
  for (const char* bad : {"4:2", "3:8", "2-4", "2:", "x:4"}) {
    const std::string error = testing::error_text(
        [&] { parse_soc_config(parse_config_text(with(bad), "arch.yaml")); });
    EXPECT_NE(error.find("sparse_mn"), std::string::npos) << bad << ": " << error;
    EXPECT_NE(error.find("arch.yaml:9"), std::string::npos) << bad << ": " << error;
  }
}

}  // namespace
}  // namespace polyarch::archs::simd::test
