// How a crossbar unit shares its arrays among the ops of its program: each op's own arrays and
// copies when every op's weights fit together, and written weights at each run when they do not.
#include "archs/crossbar/array_allocation.h"

#include <gtest/gtest.h>

#include <vector>

#include "archs/crossbar/cost_model.h"
#include "tests/archs/crossbar/small_unit.h"
#include "tests/support/ir_builders.h"

namespace polyarch::archs::crossbar {
namespace {

using test_support::make_op;

// The small unit with 2 tiles of 8 arrays: 16 arrays of 64 x 64 two-bit cells, 8-bit weights
// in 4 cells, so one array holds 64 rows x 16 weights.
CrossbarParams sixteen_arrays() {
  CrossbarParams params = test_units::small_unit();
  params.arrays_per_tile = 8;
  return params;
}

// K = 64 (one row block) and N = 16 x columns-blocks weights: `blocks` arrays per copy.
ir::Op gemm(const char* name, int64_t m, int64_t blocks) {
  return make_op(name, ir::GemmAttrs{.m = m, .n = 16 * blocks, .k = 64});
}

TEST(CrossbarArrayAllocation, OpsOfThreeAndFiveArraysOnSixteenTakeTwoCopiesEach) {
  const CrossbarParams params = sixteen_arrays();
  const ir::Op three = gemm("three", 4, 3);
  const ir::Op five = gemm("five", 4, 5);
  const ArrayAllocation allocation = allocate_arrays(params, {&three, &five}, {});
  ASSERT_TRUE(allocation.resident);
  // By hand: 8 spare arrays. A wave is 8 slices x 100 ns whatever its copies (reads outlast the
  // 64 ns conversions), so each op's time is its waves, ceil(4 / copies), x 800 ns. Two copies
  // halve either op's 4 waves: 1600 ns saved for 3 arrays (533 ns per array) or for 5 (320).
  // The first step goes to `three` (5 spare left); its next step (4 copies, one wave) would
  // take 6 arrays, so the second goes to `five`, which uses the last 5.
  EXPECT_EQ(allocation.budget_of("three").arrays, 6);
  EXPECT_EQ(allocation.budget_of("five").arrays, 10);
  const CrossbarPlan plan = plan_op(params, three, std::nullopt, allocation.budget_of("three"));
  EXPECT_EQ(plan.replicas, 2);
  EXPECT_FALSE(plan.reprogrammed);
  EXPECT_EQ(plan.mapping.at("arrays_allocated"), 6);
  EXPECT_EQ(plan.mapping.at("weights_resident"), true);
}

TEST(CrossbarArrayAllocation, AnOpAloneKeepsEveryCopyThatFits) {
  const CrossbarParams params = sixteen_arrays();
  const ir::Op three = gemm("three", 64, 3);
  const ArrayAllocation allocation = allocate_arrays(params, {&three}, {});
  // floor(16 / 3) = 5 copies, as the op planned alone on the whole unit.
  EXPECT_EQ(allocation.budget_of("three").arrays, 15);
  EXPECT_EQ(plan_op(params, three, std::nullopt, allocation.budget_of("three")).replicas,
            plan_op(params, three).replicas);
}

TEST(CrossbarArrayAllocation, WeightsThatDoNotFitTogetherAreWrittenAtEachRun) {
  const CrossbarParams params = sixteen_arrays();
  const ir::Op nine = gemm("nine", 4, 9);
  const ir::Op ten = gemm("ten", 4, 10);
  const ArrayAllocation allocation = allocate_arrays(params, {&nine, &ten}, {});
  // 19 arrays on 16: each fits alone, not both.
  EXPECT_FALSE(allocation.resident);
  const ArrayBudget budget = allocation.budget_of("nine");
  EXPECT_EQ(budget.arrays, 16);
  EXPECT_FALSE(budget.resident);
  const CrossbarPlan plan = plan_op(params, nine, std::nullopt, budget);
  // One copy on 9 of the 16 arrays, written before its waves: 64 rows x 10 ns, every cell of
  // the copy (64 x 144 weights x 4 cells), its weights read from DRAM once (64 x 144 weights
  // in the op's default 16-bit type).
  EXPECT_EQ(plan.replicas, 1);
  EXPECT_TRUE(plan.reprogrammed);
  EXPECT_DOUBLE_EQ(plan.program_ns, 640.0);
  EXPECT_EQ(plan.activity.cells_reprogrammed, int64_t{64} * 144 * 4);
  EXPECT_EQ(plan.dram_read_bytes, plan.input_bytes + int64_t{64} * 144 * 2);
  EXPECT_EQ(plan.mapping.at("weights_resident"), false);
  // The same op with its weights resident reads only its inputs.
  EXPECT_EQ(plan_op(params, nine).dram_read_bytes, plan.input_bytes);
}

TEST(CrossbarArrayAllocation, WeightsThatFitWithOneCopyEachAreWrittenWhereThatIsFaster) {
  CrossbarParams params = sixteen_arrays();
  const ir::Op first = gemm("first", 16, 8);
  const ir::Op second = gemm("second", 16, 8);
  // By hand: the two ops' 8 + 8 arrays fill the unit, one copy each: 16 waves of 800 ns, 12.8 us
  // per op. Written at each run on the whole unit, each op takes two copies (8 waves, 6.4 us)
  // after writing them in 64 rows x 10 ns = 0.64 us: 7.04 us per op, so writing wins.
  const ArrayAllocation fast_writes = allocate_arrays(params, {&first, &second}, {});
  EXPECT_FALSE(fast_writes.resident);
  EXPECT_EQ(fast_writes.budget_of("first").arrays, 16);
  EXPECT_FALSE(fast_writes.budget_of("first").resident);
  // Rows written in 1 us instead: 64 us of writing per op and run, far more than the 6.4 us
  // the second copy saves, so the weights stay.
  params.cell.write_ns_per_row = 1000;
  const ArrayAllocation slow_writes = allocate_arrays(params, {&first, &second}, {});
  EXPECT_TRUE(slow_writes.resident);
  EXPECT_EQ(slow_writes.budget_of("first").arrays, 8);
  EXPECT_TRUE(slow_writes.budget_of("first").resident);
}

TEST(CrossbarArrayAllocation, AnOpTheProgramDidNotListHasTheWholeUnit) {
  const ArrayAllocation allocation;
  EXPECT_EQ(allocation.budget_of("other").arrays, 0);
  EXPECT_TRUE(allocation.budget_of("other").resident);
}

}  // namespace
}  // namespace polyarch::archs::crossbar
