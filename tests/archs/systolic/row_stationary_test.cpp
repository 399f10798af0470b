#include "archs/systolic/row_stationary.h"

#include <gtest/gtest.h>

#include "archs/systolic/cost_model.h"
#include "tests/support/ir_builders.h"

namespace polyarch::archs::systolic {
namespace {

SystolicParams rs_array(int64_t rows, int64_t cols) {
  SystolicParams params;
  params.name = "rs";
  params.rows = rows;
  params.cols = cols;
  params.dataflow = Dataflow::kRowStationary;
  params.dtype = ir::DType::kInt8;
  params.acc_dtype = ir::DType::kInt32;
  params.buffers = {.ifmap_kib = 1 << 20, .filter_kib = 1 << 20, .ofmap_kib = 1 << 20};
  return params;
}

ir::Op conv(ir::Conv2dAttrs attrs) { return test_support::make_op("conv", attrs); }

TEST(RowStationary, PeSetsFoldOntoEyerissArrayAsTheIscaPaperDescribes) {
  // AlexNet CONV1 (R = 11, E = 55) on 12 x 14: E > 14, so the 11 x 55 set is strip-mined into
  // ceil(55/14) = 4 strips of ceil(55/4) = 14 columns; one 11-row strip fits down the array:
  // 11 * 14 = 154 active PEs.
  const PeSetMapping conv1 = map_pe_sets(12, 14, 11, 55);
  EXPECT_EQ(conv1.strips, 4);
  EXPECT_EQ(conv1.strip_width, 14);
  EXPECT_EQ(conv1.sets_down, 1);
  EXPECT_EQ(conv1.sets_across, 1);
  // CONV2 (R = 5, E = 27): 2 strips of 14; floor(12/5) = 2 strips run at once, one above the
  // other (both strips of one set, or strips of two sets).
  const PeSetMapping conv2 = map_pe_sets(12, 14, 5, 27);
  EXPECT_EQ(conv2.strips, 2);
  EXPECT_EQ(conv2.strip_width, 14);
  EXPECT_EQ(conv2.placements(), 2);
  // CONV3-5 (R = 3, E = 13): the 3 x 13 set fits whole; floor(12/3) = 4 sets: 156 PEs.
  const PeSetMapping conv3 = map_pe_sets(12, 14, 3, 13);
  EXPECT_EQ(conv3.strips, 1);
  EXPECT_EQ(conv3.placements() * 3 * conv3.strip_width, 156);
  // R > rows: a 5-row filter on 3 PE rows runs as ceil(5/3) = 2 segments of 3 rows.
  const PeSetMapping tall = map_pe_sets(3, 4, 5, 4);
  EXPECT_EQ(tall.row_segments, 2);
  EXPECT_EQ(tall.segment_rows, 3);
}

TEST(RowStationary, SmallConvolutionCyclesWorkedByHand) {
  // 3x3 filter over a 6x6 ifmap (1 channel, 1 filter, stride 1): E = F = 4. On a 4 x 3 array
  // the 3 x 4 PE set is wider than 3 columns: 2 strips of 2 columns; floor(4/3) = 1 strip down,
  // floor(3/2) = 1 across, so the strips run one after the other. Each strip's PEs run a 3-tap
  // row convolution over F = 4 outputs: 3 * 4 = 12 cycles; 2 strips: 24 cycles. MACs: 16
  // outputs * 9 = 144, on 6 PEs busy 24 cycles = 144 PE-cycles.
  const SystolicPlan plan =
      plan_op(rs_array(4, 3), conv({.n = 1, .c = 1, .h = 6, .w = 6, .k = 1, .r = 3, .s = 3}));
  EXPECT_EQ(plan.compute_cycles, 24);
  EXPECT_EQ(plan.macs, 144);
  EXPECT_EQ(plan.fold_count, 1);
  const FoldShape& tile = plan.blocks.front().runs.front().tile;
  EXPECT_EQ(tile.rows_used * tile.cols_used, 6);
  EXPECT_DOUBLE_EQ(plan.mapping_efficiency, 6.0 / 12.0);
  EXPECT_EQ(plan.mapping["active_pes"], 6);
  EXPECT_EQ(plan.mapping["strips"], 2);
}

TEST(RowStationary, SetsRunInParallelAndFilterRowsSplitIntoSegments) {
  // 2 filters x 2 channels, 3x3 over 5x5: E = F = 3. On 6 x 3 the 3 x 3 set fits twice down:
  // 2 filters * 2 channels = 4 units in ceil(4/2) = 2 passes of 3 * 3 = 9 cycles: 18 cycles, and
  // every PE busy: 2 * 9 outputs * 2 channels * 9 taps = 324 MACs = 18 PEs * 18 cycles.
  const SystolicPlan sets =
      plan_op(rs_array(6, 3), conv({.n = 1, .c = 2, .h = 5, .w = 5, .k = 2, .r = 3, .s = 3}));
  EXPECT_EQ(sets.compute_cycles, 18);
  EXPECT_EQ(sets.macs, 324);
  EXPECT_DOUBLE_EQ(sets.mapping_efficiency, 1.0);
  // 5x5 filter over 8x8 (E = F = 4) on 3 x 4: 2 segments of 3 filter rows, each a unit of
  // 5 * 4 = 20 cycles: 40 cycles (the last segment's third row idles).
  const SystolicPlan tall =
      plan_op(rs_array(3, 4), conv({.n = 1, .c = 1, .h = 8, .w = 8, .k = 1, .r = 5, .s = 5}));
  EXPECT_EQ(tall.compute_cycles, 40);
  EXPECT_EQ(tall.macs, 16 * 25);
}

TEST(RowStationary, GemmRunsAsItsOneByOneConvolution) {
  // [M=10 x K=4] * [K=4 x N=6] on 2 x 3: a 1 x 1 PE set, 6 placed at once; 4 channels * 6
  // filters = 24 units in 4 passes of S * F = 1 * 10 cycles: 40 cycles, 240 MACs.
  const ir::Op gemm = test_support::make_op("gemm", ir::GemmAttrs{.m = 10, .n = 6, .k = 4});
  const SystolicPlan plan = plan_op(rs_array(2, 3), gemm);
  EXPECT_EQ(plan.compute_cycles, 40);
  EXPECT_EQ(plan.macs, 240);
  EXPECT_DOUBLE_EQ(plan.mapping_efficiency, 1.0);
}

TEST(RowStationary, DramTrafficFollowsTheBufferedTiles) {
  // 12x12 ifmap, 8 channels, 4 filters of 3x3: E = F = 10, int8 operands, int32 partial sums.
  // One filter's psums take 10 * 10 * 4 = 400 B, so a 1 KiB psum buffer holds 2 filters: 2
  // filter groups. Ifmap 8 * 144 = 1152 B; filters 4 * 8 * 9 = 288 B; outputs 400 B.
  SystolicParams params = rs_array(12, 14);
  params.buffers = {.ifmap_kib = 1, .filter_kib = 1, .ofmap_kib = 1, .double_buffered = false};
  const ir::Op op = conv({.n = 1, .c = 8, .h = 12, .w = 12, .k = 4, .r = 3, .s = 3});
  // The ifmap exceeds its 1 KiB buffer, so each filter group reads it again: 2 * 1152 + 288.
  const SystolicPlan spill = plan_op(params, op);
  EXPECT_EQ(spill.mapping["filter_groups"], 2);
  EXPECT_EQ(spill.dram_read_bytes, 2 * 1152 + 288);
  EXPECT_EQ(spill.dram_write_bytes, 400);
  // With a 2 KiB ifmap buffer it stays: every operand moves once.
  params.buffers.ifmap_kib = 2;
  const SystolicPlan resident = plan_op(params, op);
  EXPECT_EQ(resident.dram_read_bytes, 1152 + 288);
  EXPECT_EQ(resident.dram_write_bytes, 400);
  // Cycles: the 3 x 10 set fits 4 times down 12 rows; 2 filters * 8 channels = 16 units per
  // group in 4 passes of 3 * 10 cycles: 120 per group, 240 in all.
  EXPECT_EQ(resident.compute_cycles, 240);
}

TEST(RowStationary, TilingMovesFewerBytesWhenCyclesTie) {
  // 1x1 filters, 8 channels, 2 filters over a 4 x 128 ifmap (E = 4, F = 128) on a 1 x 2 array:
  // strips of 2 ofmap rows, one strip at a time. int8 operands, int32 psums, 2 KiB psum buffer,
  // 1 KiB ifmap buffer, nothing double buffered.
  // - 4-row tiles: one filter's psums take 4 * 128 * 4 = 2048 B, so 1 filter a tile and 2
  //   groups; the 4096 B ifmap does not fit, so each group reads it: 8192 + 16 filter bytes.
  //   Cycles: 8 channels * 2 strips = 16 units a group, one at a time, of 1 * 128: 4096.
  // - 2-row tiles: 1024 B a filter, both filters in one group; 2 tiles each read their 2 rows
  //   (2048 B): 4096 + 16. Cycles: 2 filters * 8 channels = 16 units a tile: 4096.
  // Equal cycles, so the 2-row tiling, which moves fewer bytes.
  SystolicParams params = rs_array(1, 2);
  params.buffers = {.ifmap_kib = 1, .filter_kib = 1, .ofmap_kib = 2, .double_buffered = false};
  const SystolicPlan plan =
      plan_op(params, conv({.n = 1, .c = 8, .h = 4, .w = 128, .k = 2, .r = 1, .s = 1}));
  EXPECT_EQ(plan.compute_cycles, 4096);
  EXPECT_EQ(plan.dram_read_bytes, 4096 + 16);
  EXPECT_EQ(plan.dram_write_bytes, 2 * 4 * 128);
  EXPECT_EQ(plan.mapping["tile"]["ofmap_rows"], 2);
  EXPECT_EQ(plan.mapping["filter_groups"], 1);
}

TEST(RowStationary, ScratchpadsBoundFiltersAndChannelsPerPe) {
  const RowStationaryScratchpads eyeriss;  // 224 / 12 / 24 words
  // S = 3: q = floor(12/3) = 4 channels; p = min(24, floor(224 / (4*3))) = 18 filters.
  const ScratchpadReuse three = scratchpad_reuse(eyeriss, 3, 256, 384);
  EXPECT_EQ(three.channels_per_pe, 4);
  EXPECT_EQ(three.filters_per_pe, 18);
  // S = 11: q = 1; p = min(24, floor(224/11)) = 20.
  const ScratchpadReuse eleven = scratchpad_reuse(eyeriss, 11, 3, 96);
  EXPECT_EQ(eleven.channels_per_pe, 1);
  EXPECT_EQ(eleven.filters_per_pe, 20);
}

}  // namespace
}  // namespace polyarch::archs::systolic
