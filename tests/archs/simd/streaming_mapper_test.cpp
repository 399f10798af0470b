// The work a streaming kernel does and what bounds it, derived by hand for the shipped
// h100_like SMs (128 fp32 lanes and 16 SFU results per cycle, 132 of them).
#include "archs/simd/streaming_mapper.h"

#include <gtest/gtest.h>

#include "archs/simd/kernel_plan.h"
#include "tests/archs/simd/simd_fixture.h"

namespace polyarch::archs::simd {
namespace {

using test::elementwise;

class StreamingMapper : public ::testing::Test {
 protected:
  SimdParams params = test::simd_params_of(test::load_shipped("h100_like.yaml"));
};

// bf16 GELU: the erf form's 28 lane ops and one exp2 in fp32, the input converted in and the
// result out (30 fp32 lane ops).
TEST_F(StreamingMapper, Bf16GeluRunsTheErfRoutineInFp32) {
  const int64_t n = 1 << 20;
  const StreamingWork work = streaming_work(params, elementwise("gelu", n, 1), ir::DType::kBf16);
  EXPECT_EQ(work.dtype, ir::DType::kFp32);
  EXPECT_EQ(work.vector_ops, 30 * n);
  EXPECT_EQ(work.sfu_ops, n);
  EXPECT_EQ(work.dram_read_bytes, 2 * n);
  const StreamingWork fp32 = streaming_work(params, elementwise("gelu", n, 1), ir::DType::kFp32);
  EXPECT_EQ(fp32.vector_ops, 28 * n);  // nothing to convert
}

// The tanh form (22 lane ops, two approximations) in fp32, with the same two conversions.
TEST_F(StreamingMapper, Bf16TanhGeluRunsTheTanhRoutine) {
  const int64_t n = 1 << 20;
  ir::Op op = elementwise("gelu", n, 1);
  std::get<ir::ElementwiseAttrs>(op.attrs).approximate_tanh = true;
  const StreamingWork work = streaming_work(params, op, ir::DType::kBf16);
  EXPECT_EQ(work.vector_ops, 24 * n);
  EXPECT_EQ(work.sfu_ops, 2 * n);
}

// An add of two bf16 tensors: one lane op, three conversions; of int8 ones, the op alone.
TEST_F(StreamingMapper, Bf16AddConvertsBothOperandsAndTheResult) {
  const int64_t n = 4096;
  EXPECT_EQ(streaming_work(params, elementwise("add", n, 2), ir::DType::kBf16).vector_ops, 4 * n);
  EXPECT_EQ(streaming_work(params, elementwise("add", n, 2), ir::DType::kInt8).vector_ops, n);
  // A copy computes nothing, so converts nothing.
  EXPECT_EQ(streaming_work(params, elementwise("copy", n, 1), ir::DType::kBf16).vector_ops, 0);
}

// Softmax of bf16 rows: 30 lane ops and 3 SFU results per element (library_math_test), the row
// converted on each of three passes and the result once.
TEST_F(StreamingMapper, Bf16SoftmaxDoesThreePassesOfLibraryWork) {
  const ir::Op op = test_support::make_op("sm", ir::SoftmaxAttrs{.rows = 64, .cols = 4096});
  const StreamingWork work = streaming_work(params, op, ir::DType::kBf16);
  EXPECT_EQ(work.vector_ops, 64 * 4096 * (30 + 4));
  EXPECT_EQ(work.sfu_ops, 64 * 4096 * 3);
}

// Layer norm: 12 lane ops and a reciprocal per element, one rsqrt per row; x converted on both
// passes, gamma, beta and the result once each.
TEST_F(StreamingMapper, Bf16LayerNormCountsWelfordAndItsConversions) {
  const ir::Op op = test_support::make_op(
      "ln", ir::NormAttrs{.kind = ir::NormKind::kLayerNorm, .rows = 64, .cols = 4096});
  const StreamingWork work = streaming_work(params, op, ir::DType::kBf16);
  EXPECT_EQ(work.vector_ops, 64 * 4096 * (12 + 5));
  EXPECT_EQ(work.sfu_ops, 64 * 4096 + 64);
}

// A bf16 sum over rows: one lane op per element in the stored type, nothing converted (the
// library work of library_math.h covers elementwise functions, norms and softmax only).
TEST_F(StreamingMapper, Bf16ReduceStaysInItsStoredType) {
  const ir::Op op = test_support::make_op("sum", ir::ReduceAttrs{.rows = 64, .cols = 4096});
  const StreamingWork work = streaming_work(params, op, ir::DType::kBf16);
  EXPECT_EQ(work.dtype, ir::DType::kBf16);
  EXPECT_EQ(work.vector_ops, 64 * 4096);
}

// 2^28 bf16 GELUs over 132 SMs. Their lanes need 30 * 2^28 / (128 * 132) = 476,625 cycles, less
// than moving 1 GiB from HBM3 at 3.35 TB/s (1831 bytes per 1.83 GHz cycle: 586,413 cycles), so
// the H100 is memory-bound; with 64 lanes per SM the lanes need 953,250 cycles and bound it.
TEST_F(StreamingMapper, LaneBoundWhenTheRoutineOutrunsTheMemory) {
  const int64_t n = int64_t{1} << 28;
  const double dram_bytes_per_cycle = 3350e9 / 1.83e9;
  const KernelPlan plan =
      plan_streaming(params, streaming_work(params, elementwise("gelu", n, 1), ir::DType::kBf16));
  const int64_t h100 = estimate_cycles(plan, dram_bytes_per_cycle, 0);
  EXPECT_GE(h100, static_cast<int64_t>(4.0 * n / dram_bytes_per_cycle));
  EXPECT_LT(h100, static_cast<int64_t>(1.02 * 4.0 * n / dram_bytes_per_cycle) + 10000);
  SimdParams narrow = params;
  narrow.vector.lanes = 64;
  const KernelPlan lane_bound =
      plan_streaming(narrow, streaming_work(narrow, elementwise("gelu", n, 1), ir::DType::kBf16));
  const int64_t cycles = estimate_cycles(lane_bound, dram_bytes_per_cycle, 0);
  EXPECT_GE(cycles, 30 * n / (64 * 132));
  EXPECT_LT(cycles, 30 * n / (64 * 132) * 102 / 100 + 10000);
}

}  // namespace
}  // namespace polyarch::archs::simd
