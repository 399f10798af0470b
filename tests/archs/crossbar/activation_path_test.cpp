// A wave's activations on the tiles' buffers and the shared bus: bits / (width x clock) per
// stage, the slower stage per direction, and what the arrays' double-buffered registers hide.
#include "archs/crossbar/activation_path.h"

#include <gtest/gtest.h>

#include "archs/crossbar/cost_model.h"
#include "archs/crossbar/estimate.h"
#include "tests/archs/crossbar/small_unit.h"
#include "tests/support/ir_builders.h"

namespace polyarch::archs::crossbar {
namespace {

using test_support::make_op;

// The small unit with 64-bit buffer ports at 1 GHz and a bus of `bus_bits` at 0.5 GHz.
CrossbarParams with_paths(int64_t bus_bits) {
  CrossbarParams params = test_units::small_unit();
  params.buffer = {64, 1.0, 0.0};
  params.bus = {bus_bits, 0.5, 0.0};
  return params;
}

// One vector of 64 int8 inputs through a 64 x 16 weight (one array): 512 bits in, 128 out.
ir::Op small_gemm(int64_t m) {
  ir::Op op = make_op("fc", ir::GemmAttrs{.m = m, .n = 16, .k = 64});
  op.dtype = ir::DType::kInt8;
  return op;
}

TEST(CrossbarActivationPath, AWaveTakesBitsOverWidthTimesClockOnItsSlowerStage) {
  const WaveTransfer transfer = wave_transfer(with_paths(128), 64, 16, 1);
  // Buffer: 512 bits / 64 bits per ns = 8 ns in, 128 / 64 = 2 ns out. Bus: 128 bits x 0.5 GHz
  // = 64 bits per ns: 8 ns in, 2 ns out, 10 ns for both directions.
  EXPECT_DOUBLE_EQ(transfer.input_ns, 8.0);
  EXPECT_DOUBLE_EQ(transfer.output_ns, 2.0);
  EXPECT_DOUBLE_EQ(transfer.buffer_ns, 8.0);
  EXPECT_DOUBLE_EQ(transfer.bus_ns, 10.0);
  EXPECT_DOUBLE_EQ(transfer.stream_ns, 10.0);
}

TEST(CrossbarActivationPath, EachTileOfTheWaveBringsItsOwnBufferPorts) {
  // 8 arrays over the small unit's 2 tiles of 4: the buffers move 4096 bits at 2 x 64 bits per
  // ns (32 ns); the one bus moves it at 64 bits per ns (64 ns).
  const WaveTransfer transfer = wave_transfer(with_paths(128), 512, 0, 8);
  EXPECT_DOUBLE_EQ(transfer.buffer_ns, 32.0);
  EXPECT_DOUBLE_EQ(transfer.bus_ns, 64.0);
}

TEST(CrossbarActivationPath, UntimedPathsTakeNoTime) {
  const WaveTransfer transfer = wave_transfer(test_units::small_unit(), 4096, 4096, 8);
  EXPECT_DOUBLE_EQ(transfer.stream_ns, 0.0);
  EXPECT_DOUBLE_EQ(transfer.input_ns + transfer.output_ns, 0.0);
}

TEST(CrossbarActivationPath, FastPathsHideBehindTheArraysButTheFirstInputsAndLastOutputs) {
  // One wave: 8 slices x 100 ns reads, then the last conversion (64 ns) and the add (5 ns); the
  // paths add their first inputs (8 ns) and last outputs (2 ns).
  const CrossbarPlan one = plan_op(with_paths(128), small_gemm(1));
  const CrossbarPlan bare = plan_op(test_units::small_unit(), small_gemm(1));
  EXPECT_NEAR(estimate_op(test_units::small_unit(), bare, {}).seconds * 1e9, 869.0, 1e-6);
  EXPECT_NEAR(estimate_op(with_paths(128), one, {}).seconds * 1e9, 869.0 + 10.0, 1e-6);
}

TEST(CrossbarActivationPath, ASlowBusSetsTheWavePeriod) {
  // A 1-bit bus at 0.5 GHz: 640 bits a wave take 1280 ns, more than the arrays' 800. Four
  // vectors on one copy (a one-array budget): 4 waves at 1280 ns, the fill (69 ns), the first
  // inputs (512 bits: 1024 ns) and the last outputs (128 bits: 256 ns).
  const CrossbarParams params = with_paths(1);
  const CrossbarPlan plan = plan_op(params, small_gemm(4), std::nullopt, ArrayBudget{1, true});
  ASSERT_EQ(plan.replicas, 1);
  const CrossbarEstimate estimate = estimate_op(params, plan, {});
  EXPECT_NEAR(estimate.seconds * 1e9, 4 * 1280.0 + 69.0 + 1024.0 + 256.0, 1e-6);
  EXPECT_EQ(estimate.bound, mapping::Bound::kNoc);
}

}  // namespace
}  // namespace polyarch::archs::crossbar
