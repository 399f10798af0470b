#include "archs/systolic/cost_model.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "base/error.h"
#include "base/random_draw.h"

namespace polyarch::archs::systolic {
namespace {

constexpr Dataflow kAllDataflows[] = {Dataflow::kOutputStationary, Dataflow::kWeightStationary,
                                      Dataflow::kInputStationary};

SystolicParams array(int64_t rows, int64_t cols, Dataflow dataflow) {
  SystolicParams params;
  params.name = "sa";
  params.rows = rows;
  params.cols = cols;
  params.dataflow = dataflow;
  params.dtype = ir::DType::kInt8;
  params.acc_dtype = ir::DType::kInt32;
  params.buffers = {.ifmap_kib = 1 << 20, .filter_kib = 1 << 20, .ofmap_kib = 1 << 20};
  return params;
}

ir::Op gemm(int64_t m, int64_t n, int64_t k, int64_t batch = 1) {
  ir::Op op;
  op.name = "gemm";
  op.attrs = ir::GemmAttrs{.m = m, .n = n, .k = k, .batch = batch};
  return op;
}

ir::Op conv(ir::Conv2dAttrs attrs) {
  ir::Op op;
  op.name = "conv";
  op.attrs = attrs;
  return op;
}

int64_t run_count(const SystolicPlan& plan) {
  int64_t runs = 0;
  for (const FoldBlock& block : plan.blocks) runs += static_cast<int64_t>(block.runs.size());
  return runs;
}

// Every fold of one GEMM in execution order, expanded from the run-length plan.
std::vector<FoldShape> expand(const SystolicPlan& plan) {
  std::vector<FoldShape> folds;
  for (const FoldBlock& block : plan.blocks) {
    for (int64_t r = 0; r < block.repeat; ++r) {
      for (const FoldRun& run : block.runs) folds.insert(folds.end(), run.count, run.tile);
    }
  }
  return folds;
}

TEST(SystolicCostModel, OperandViewFollowsScaleSimPerDataflow) {
  const OperandDims os = operand_dims(Dataflow::kOutputStationary, 10, 20, 30);
  EXPECT_EQ(os.spatial_rows, 10);
  EXPECT_EQ(os.spatial_cols, 20);
  EXPECT_EQ(os.temporal, 30);
  const OperandDims ws = operand_dims(Dataflow::kWeightStationary, 10, 20, 30);
  EXPECT_EQ(ws.spatial_rows, 30);
  EXPECT_EQ(ws.spatial_cols, 20);
  EXPECT_EQ(ws.temporal, 10);
  const OperandDims is = operand_dims(Dataflow::kInputStationary, 10, 20, 30);
  EXPECT_EQ(is.spatial_rows, 30);
  EXPECT_EQ(is.spatial_cols, 10);
  EXPECT_EQ(is.temporal, 20);
}

TEST(SystolicCostModel, OutputStationaryFoldAddsSkewOfRowsPlusCols) {
  EXPECT_EQ(fold_cycles(Dataflow::kOutputStationary, 8, 4, 100), 100 + 8 + 4 - 2);
}

TEST(SystolicCostModel, StationaryDataflowsPayPreloadSkewAndDrain) {
  EXPECT_EQ(fold_cycles(Dataflow::kWeightStationary, 8, 4, 100), 2 * 8 + 4 + 100 - 2);
  EXPECT_EQ(fold_cycles(Dataflow::kInputStationary, 8, 4, 100), 2 * 8 + 4 + 100 - 2);
}

TEST(SystolicCostModel, AlexNetConv1MatchesScaleSimGoldenTrace) {
  // SCALE-Sim v2 test/golden_trace: alexnet Conv1 (227x227x3, 96 11x11 filters, stride 4) on
  // a 32x32 weight-stationary array reports 112283 cycles: 36 folds of 3119 cycles, minus 1.
  const ir::Conv2dAttrs conv1{
      .n = 1, .c = 3, .h = 227, .w = 227, .k = 96, .r = 11, .s = 11, .stride_h = 4, .stride_w = 4};
  const SystolicPlan plan = plan_op(array(32, 32, Dataflow::kWeightStationary), conv(conv1));
  EXPECT_EQ(plan.fold_count, 36);
  EXPECT_EQ(plan.row_folds, 12);
  EXPECT_EQ(plan.col_folds, 3);
  EXPECT_EQ(plan.compute_cycles, 112283);
}

TEST(SystolicCostModel, CountsEveryCycleWithoutScaleSimCompat) {
  SystolicParams params = array(8, 8, Dataflow::kWeightStationary);
  params.scalesim_compat = false;
  const SystolicPlan plan = plan_op(params, gemm(100, 70, 50));
  EXPECT_EQ(plan.compute_cycles, 7 * 9 * (16 + 8 + 100 - 2));
  params.scalesim_compat = true;
  EXPECT_EQ(plan_op(params, gemm(100, 70, 50)).compute_cycles, plan.compute_cycles - 1);
}

TEST(SystolicCostModel, LastFoldsUseOnlyTheRemainingRowsAndColumns) {
  const SystolicPlan plan = plan_op(array(8, 16, Dataflow::kOutputStationary), gemm(20, 40, 7));
  ASSERT_EQ(plan.row_folds, 3);
  ASSERT_EQ(plan.col_folds, 3);
  const std::vector<FoldShape> folds = expand(plan);
  ASSERT_EQ(folds.size(), 9u);
  const int64_t expected_rows[] = {8, 8, 4};
  const int64_t expected_cols[] = {16, 16, 8};
  for (int col = 0; col < 3; ++col) {
    for (int row = 0; row < 3; ++row) {
      const FoldShape& fold = folds[col * 3 + row];
      EXPECT_EQ(fold.rows_used, expected_rows[row]);
      EXPECT_EQ(fold.cols_used, expected_cols[col]);
      EXPECT_EQ(fold.macs, fold.rows_used * fold.cols_used * 7);
      EXPECT_EQ(fold.cycles, 7 + 8 + 16 - 2);
    }
  }
  EXPECT_EQ(plan.macs, 20 * 40 * 7);
  EXPECT_DOUBLE_EQ(plan.mapping_efficiency, (20.0 * 40.0) / (9 * 8 * 16));
}

TEST(SystolicCostModel, SramDemandCountsFollowScaleSimPerDataflow) {
  const int64_t m = 20, n = 12, k = 9;  // one fold on a 32x32 array, so every count is whole
  const SystolicPlan os = plan_op(array(32, 32, Dataflow::kOutputStationary), gemm(m, n, k));
  EXPECT_EQ(os.ifmap_sram_reads, m * k);
  EXPECT_EQ(os.filter_sram_reads, k * n);
  EXPECT_EQ(os.ofmap_sram_writes, m * n);
  const SystolicPlan ws = plan_op(array(4, 4, Dataflow::kWeightStationary), gemm(m, n, k));
  // 3 row folds of K, 3 column folds of N: the ifmap streams once per column fold.
  EXPECT_EQ(ws.ifmap_sram_reads, m * k * 3);
  EXPECT_EQ(ws.filter_sram_reads, k * n);
  EXPECT_EQ(ws.ofmap_sram_writes, m * n * 3);  // one partial sum per row fold
  const SystolicPlan is = plan_op(array(4, 4, Dataflow::kInputStationary), gemm(m, n, k));
  // 3 row folds of K, 5 column folds of M: the filter streams once per column fold.
  EXPECT_EQ(is.ifmap_sram_reads, m * k);
  EXPECT_EQ(is.filter_sram_reads, k * n * 5);
  EXPECT_EQ(is.ofmap_sram_writes, m * n * 3);
}

TEST(SystolicCostModel, ResidentOperandsCrossDramExactlyOnce) {
  for (Dataflow dataflow : kAllDataflows) {
    SCOPED_TRACE(std::string(dataflow_name(dataflow)));
    const SystolicPlan plan = plan_op(array(8, 8, dataflow), gemm(50, 37, 29));
    EXPECT_GT(plan.fold_count, 4);
    EXPECT_EQ(plan.dram_read_bytes, 50 * 29 + 29 * 37);
    EXPECT_EQ(plan.dram_write_bytes, 50 * 37);
    EXPECT_EQ(plan.ofmap_sram_reads, 0);
  }
}

TEST(SystolicCostModel, ResidentConvolutionReadsTheRealInputNotItsIm2col) {
  const ir::Conv2dAttrs attrs{.n = 2,
                              .c = 6,
                              .h = 15,
                              .w = 13,
                              .k = 10,
                              .r = 3,
                              .s = 3,
                              .pad_h = 1,
                              .pad_w = 1,
                              .groups = 2};
  for (Dataflow dataflow : kAllDataflows) {
    SCOPED_TRACE(std::string(dataflow_name(dataflow)));
    SystolicParams params = array(4, 4, dataflow);
    params.dtype = ir::DType::kFp16;
    const SystolicPlan plan = plan_op(params, conv(attrs));
    EXPECT_EQ(plan.gemm_repeats, 2);
    const int64_t input = 2 * 6 * 15 * 13, filters = 10 * 3 * 3 * 3, output = 2 * 10 * 15 * 13;
    EXPECT_EQ(plan.dram_read_bytes, 2 * (input + filters));
    EXPECT_EQ(plan.dram_write_bytes, 2 * output);
  }
}

TEST(SystolicCostModel, StreamedOperandsAreRefetchedForEveryFoldThatNeedsThem) {
  const int64_t m = 64, n = 48, k = 40;  // 8x8 array: OS 8x6 folds, WS/IS 5 row folds
  auto tiny = [](Dataflow dataflow) {
    SystolicParams params = array(8, 8, dataflow);
    params.buffers = {.ifmap_kib = 1, .filter_kib = 1, .ofmap_kib = 1, .double_buffered = true};
    return params;
  };
  // OS: each ifmap row slice is re-read for every column fold, each 40x8 filter slice (320 B
  // against a 512 B half buffer) once per column fold; outputs leave after every fold.
  const SystolicPlan os = plan_op(tiny(Dataflow::kOutputStationary), gemm(m, n, k));
  EXPECT_EQ(os.dram_read_bytes, m * k * 6 + k * n);
  EXPECT_EQ(os.dram_write_bytes, m * n);
  // WS: the ifmap is re-read per column fold; 64x8 int32 partial sums (2 KiB) do not fit, so
  // they spill after each of the first 4 row folds and come back before each of the last 4.
  const SystolicPlan ws = plan_op(tiny(Dataflow::kWeightStationary), gemm(m, n, k));
  EXPECT_EQ(ws.dram_read_bytes, m * k * 6 + k * n + 4 * m * n * 4);
  EXPECT_EQ(ws.dram_write_bytes, 4 * m * n * 4 + m * n);
  EXPECT_EQ(ws.ofmap_sram_reads, 4 * m * n);
  // IS: the filter is re-read per column fold (8 column folds of M); 48x8 int32 partial sums
  // (1.5 KiB) spill too.
  const SystolicPlan is = plan_op(tiny(Dataflow::kInputStationary), gemm(m, n, k));
  EXPECT_EQ(is.dram_read_bytes, m * k + k * n * 8 + 4 * m * n * 4);
  EXPECT_EQ(is.dram_write_bytes, 4 * m * n * 4 + m * n);
}

TEST(SystolicCostModel, FilterSliceThatOverflowsIsReadEveryFold) {
  SystolicParams params = array(8, 8, Dataflow::kOutputStationary);
  params.buffers = {.ifmap_kib = 1, .filter_kib = 1, .ofmap_kib = 1, .double_buffered = false};
  // A 200x8 filter slice is 1600 B > 1 KiB: fetched for each of the 4 row folds.
  const SystolicPlan plan = plan_op(params, gemm(32, 16, 200));
  EXPECT_EQ(plan.dram_read_bytes, 32 * 200 * 2 + 200 * 16 * 4);
  EXPECT_EQ(plan.mapping["operands"]["filter"]["residency"], "fetch_every_fold");
  EXPECT_EQ(plan.mapping["operands"]["ifmap"]["residency"], "fetch_every_fold");
}

TEST(SystolicCostModel, NarrowLastColumnFoldCanKeepItsAccumulatorResident) {
  SystolicParams params = array(4, 8, Dataflow::kWeightStationary);
  params.buffers = {.ifmap_kib = 64, .filter_kib = 64, .ofmap_kib = 1, .double_buffered = false};
  // 32 x 8 int32 partial sums = 1 KiB fit; the 32 x 10 of a full column fold would not.
  const SystolicPlan plan = plan_op(params, gemm(32, 18, 12));
  const nlohmann::ordered_json& ofmap = plan.mapping["operands"]["ofmap"];
  EXPECT_EQ(ofmap["residency"], "accumulate_in_buffer");
  params.cols = 10;
  const SystolicPlan wide = plan_op(params, gemm(32, 18, 12));
  EXPECT_EQ(wide.mapping["operands"]["ofmap"]["residency"], "spill_partial_sums");
  EXPECT_EQ(wide.mapping["operands"]["ofmap"]["residency_last_col_fold"], "accumulate_in_buffer");
  // Only the first (full) column fold spills: 2 of its 3 row folds write and re-read 32x10.
  EXPECT_EQ(wide.ofmap_sram_reads, 2 * 32 * 10);
  EXPECT_EQ(wide.dram_write_bytes, 32 * 18 + 2 * 32 * 10 * 4);
}

TEST(SystolicCostModel, MillionFoldLayerPlansInAHandfulOfRuns) {
  SystolicParams params = array(8, 8, Dataflow::kWeightStationary);
  params.buffers = {.ifmap_kib = 1, .filter_kib = 1, .ofmap_kib = 1};
  const SystolicPlan plan = plan_op(params, gemm(1000, 8000 + 3, 8000 - 5));
  EXPECT_EQ(plan.fold_count, 1000 * 1001);
  EXPECT_LE(run_count(plan), 12);
  EXPECT_EQ(plan.compute_cycles, plan.fold_count * (16 + 8 + 1000 - 2) - 1);
  EXPECT_EQ(plan.macs, int64_t{1000} * 8003 * 7995);
}

TEST(SystolicCostModel, RunLengthPlanCoversEveryFoldOfTheLoopNestOnce) {
  constexpr uint64_t kSeed = 0xf01d5;
  std::mt19937_64 rng(kSeed);
  auto uniform = [&rng](int64_t lo, int64_t hi) { return polyarch::random_int(rng, lo, hi); };
  for (int index = 0; index < 300; ++index) {
    const int64_t m = uniform(1, 300), n = uniform(1, 300), k = uniform(1, 300);
    SystolicParams params = array(uniform(1, 32), uniform(1, 32), kAllDataflows[index % 3]);
    params.buffers = {.ifmap_kib = uniform(1, 64),
                      .filter_kib = uniform(1, 64),
                      .ofmap_kib = uniform(1, 64),
                      .double_buffered = index % 2 == 0};
    SCOPED_TRACE("seed " + std::to_string(kSeed) + " case " + std::to_string(index));
    const SystolicPlan plan = plan_op(params, gemm(m, n, k));
    const std::vector<FoldShape> folds = expand(plan);
    ASSERT_EQ(static_cast<int64_t>(folds.size()), plan.row_folds * plan.col_folds);
    EXPECT_LE(run_count(plan), 9);
    int64_t macs = 0, cols_covered = 0;
    for (int64_t col = 0; col < plan.col_folds; ++col) {
      int64_t rows_covered = 0;
      for (int64_t row = 0; row < plan.row_folds; ++row) {
        const FoldShape& fold = folds[col * plan.row_folds + row];
        rows_covered += fold.rows_used;
        EXPECT_EQ(fold.cols_used, folds[col * plan.row_folds].cols_used);
        macs += fold.macs;
      }
      EXPECT_EQ(rows_covered, plan.dims.spatial_rows);
      cols_covered += folds[col * plan.row_folds].cols_used;
    }
    EXPECT_EQ(cols_covered, plan.dims.spatial_cols);
    EXPECT_EQ(macs, m * n * k);
    // Every operand crosses DRAM at least once; finished outputs leave exactly once.
    EXPECT_GE(plan.dram_read_bytes, m * k + k * n);
    EXPECT_GE(plan.dram_write_bytes, m * n);
  }
}

TEST(SystolicCostModel, RepeatsOfTheGemmMultiplyEveryTotal) {
  const SystolicParams params = array(8, 8, Dataflow::kInputStationary);
  SystolicParams exact = params;
  exact.scalesim_compat = false;
  const SystolicPlan once = plan_op(exact, gemm(30, 20, 10));
  const SystolicPlan thrice = plan_op(exact, gemm(30, 20, 10, 3));
  EXPECT_EQ(thrice.gemm_repeats, 3);
  EXPECT_EQ(thrice.fold_count, 3 * once.fold_count);
  EXPECT_EQ(thrice.compute_cycles, 3 * once.compute_cycles);
  EXPECT_EQ(thrice.macs, 3 * once.macs);
  EXPECT_EQ(thrice.dram_read_bytes, 3 * once.dram_read_bytes);
  EXPECT_EQ(thrice.dram_write_bytes, 3 * once.dram_write_bytes);
  EXPECT_EQ(thrice.ifmap_sram_reads, 3 * once.ifmap_sram_reads);
  EXPECT_EQ(thrice.blocks.size(), once.blocks.size());
}

TEST(SystolicCostModel, MappingDescribesViewFoldsAndResidency) {
  const SystolicPlan plan = plan_op(array(16, 16, Dataflow::kWeightStationary), gemm(64, 40, 20));
  const nlohmann::ordered_json& mapping = plan.mapping;
  EXPECT_EQ(mapping["dataflow"], "ws");
  EXPECT_EQ(mapping["Sr"], 20);
  EXPECT_EQ(mapping["Sc"], 40);
  EXPECT_EQ(mapping["T"], 64);
  EXPECT_EQ(mapping["row_folds"], 2);
  EXPECT_EQ(mapping["col_folds"], 3);
  EXPECT_EQ(mapping["fold_count"], 6);
  EXPECT_EQ(mapping["loop_order"], "col_folds_outer_row_folds_inner");
  EXPECT_EQ(mapping["operands"]["ifmap"]["depends_on"], "row_fold");
  EXPECT_EQ(mapping["operands"]["ifmap"]["residency"], "fetch_once_resident");
  EXPECT_EQ(mapping["operands"]["filter"]["depends_on"], "row_and_col_fold");
  EXPECT_EQ(mapping["operands"]["ofmap"]["depends_on"], "col_fold");
  EXPECT_EQ(mapping["operands"]["ofmap"]["residency"], "accumulate_in_buffer");
}

TEST(SystolicCostModel, ArrayWithoutPesIsABadInputError) {
  SystolicParams params = array(0, 8, Dataflow::kOutputStationary);
  try {
    plan_op(params, gemm(4, 4, 4));
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_NE(error.message().find("sa"), std::string::npos);
  }
}

}  // namespace
}  // namespace polyarch::archs::systolic
