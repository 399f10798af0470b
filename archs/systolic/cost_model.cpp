#include "archs/systolic/cost_model.h"

#include <algorithm>
#include <string>

#include "archs/systolic/operand_types.h"
#include "archs/systolic/row_stationary.h"
#include "base/checked_math.h"
#include "base/error.h"

// Equations and sources: archs/systolic/README.md. Fold timing and the operand view follow
// SCALE-Sim v2 (scalesim/compute/systolic_compute_{os,ws,is}.py at commit 22f88b1); the DRAM
// traffic model is polyarch's own (SCALE-Sim moves every SRAM miss through its prefetcher).
namespace polyarch::archs::systolic {

int64_t buffer_capacity_bytes(int64_t kib, bool double_buffered) {
  const int64_t bytes = checked_mul(kib, 1024, "systolic buffer bytes");
  return double_buffered ? bytes / 2 : bytes;
}

OperandDims operand_dims(Dataflow dataflow, int64_t m, int64_t n, int64_t k) {
  switch (dataflow) {
    case Dataflow::kOutputStationary:
      return {.spatial_rows = m, .spatial_cols = n, .temporal = k};
    case Dataflow::kWeightStationary:
      return {.spatial_rows = k, .spatial_cols = n, .temporal = m};
    case Dataflow::kInputStationary:
      return {.spatial_rows = k, .spatial_cols = m, .temporal = n};
    case Dataflow::kRowStationary:
      break;  // not a GEMM fold mapping (row_stationary.h)
  }
  throw_runtime({}, "systolic dataflow without a GEMM operand view");
}

int64_t fold_cycles(Dataflow dataflow, int64_t array_rows, int64_t array_cols, int64_t temporal) {
  // OS: operands stream T cycles, skewed by R-1 rows and C-1 columns; the last MAC lands in
  // PE(R-1, C-1). WS/IS: R cycles preload the stationary operand, then the streamed operand
  // needs T + R-1 (skew) + C-1 cycles and the last partial sum R more to leave the bottom row.
  if (dataflow == Dataflow::kOutputStationary) {
    return temporal + array_rows + array_cols - 2;
  }
  return 2 * array_rows + array_cols + temporal - 2;
}

namespace {

enum class FoldDependence { kRowFold, kColFold, kBoth };

std::string_view dependence_name(FoldDependence dependence) {
  switch (dependence) {
    case FoldDependence::kRowFold:
      return "row_fold";
    case FoldDependence::kColFold:
      return "col_fold";
    case FoldDependence::kBoth:
      return "row_and_col_fold";
  }
  return "";
}

// Elements an operand contributes to each slice along one fold dimension, in proportion to
// the slice's extent. The last slice absorbs the rounding so that the slices of one pass add
// up to the operand exactly (a convolution's ifmap is smaller than its im2col matrix).
struct Split {
  int64_t full = 0;
  int64_t last = 0;
  int64_t at(bool last_fold) const { return last_fold ? last : full; }
};

Split split_elements(int64_t total, int64_t extent, int64_t per_fold, int64_t folds) {
  Split split;
  if (folds > 1) {
    split.full = static_cast<int64_t>(static_cast<__int128>(total) * per_fold / extent);
  }
  split.last = total - split.full * (folds - 1);
  return split;
}

// An input operand (ifmap or filter) as DRAM sees it. slice[last_row][last_col] in elements.
struct InputOperand {
  std::string_view name;
  FoldDependence dependence = FoldDependence::kBoth;
  int64_t whole_elements = 0;
  int64_t slice[2][2] = {{0, 0}, {0, 0}};
  int64_t capacity_bytes = 0;
};

struct PlanContext {
  Dataflow dataflow = Dataflow::kWeightStationary;
  int64_t array_rows = 0;
  int64_t array_cols = 0;
  OperandDims dims;
  int64_t row_folds = 0;
  int64_t col_folds = 0;
  ir::DType element_dtype = ir::DType::kInt8;  // as the buffers and DRAM hold the operands
  int64_t acc_bytes = 0;
  int64_t ofmap_capacity_bytes = 0;
  InputOperand ifmap;
  InputOperand filter;

  int64_t rows_used(bool last_row) const {
    return last_row ? dims.spatial_rows - (row_folds - 1) * array_rows : array_rows;
  }
  int64_t cols_used(bool last_col) const {
    return last_col ? dims.spatial_cols - (col_folds - 1) * array_cols : array_cols;
  }
  // Bytes `elements` operand elements occupy (int4 packed two to a byte).
  int64_t bytes_of(int64_t elements) const { return ir::storage_bytes(elements, element_dtype); }
  bool fits(int64_t bytes, int64_t capacity_bytes) const { return bytes <= capacity_bytes; }
  // WS and IS accumulate an output column fold over the row folds (the reduction dimension K
  // is spread over the rows); OS finishes every output inside one fold.
  bool accumulates() const { return dataflow != Dataflow::kOutputStationary; }
  bool accumulator_fits(bool last_col) const {
    return fits(checked_mul(dims.temporal * cols_used(last_col), acc_bytes, "accumulator bytes"),
                ofmap_capacity_bytes);
  }
};

InputOperand make_input(std::string_view name, FoldDependence dependence, int64_t total,
                        const PlanContext& ctx, int64_t capacity_bytes) {
  InputOperand operand{.name = name, .dependence = dependence, .whole_elements = total};
  operand.capacity_bytes = capacity_bytes;
  const OperandDims& dims = ctx.dims;
  for (int last_row = 0; last_row < 2; ++last_row) {
    for (int last_col = 0; last_col < 2; ++last_col) {
      int64_t share = total;
      if (dependence != FoldDependence::kRowFold) {
        share = split_elements(share, dims.spatial_cols, ctx.array_cols, ctx.col_folds)
                    .at(last_col != 0);
      }
      if (dependence != FoldDependence::kColFold) {
        share = split_elements(share, dims.spatial_rows, ctx.array_rows, ctx.row_folds)
                    .at(last_row != 0);
      }
      operand.slice[last_row][last_col] = share;
    }
  }
  return operand;
}

// Position of a fold in the loop nest: column folds outer, row folds inner.
struct FoldPosition {
  bool first_row = false;
  bool last_row = false;
  bool first_col = false;
  bool last_col = false;
};

// DRAM elements an input operand needs before this fold (the residency rule of README.md).
int64_t input_dram_elements(const PlanContext& ctx, const InputOperand& operand,
                            const FoldPosition& at) {
  const int64_t slice = operand.slice[at.last_row][at.last_col];
  switch (operand.dependence) {
    case FoldDependence::kBoth:
      return slice;
    case FoldDependence::kColFold:
      return ctx.fits(ctx.bytes_of(slice), operand.capacity_bytes) && !at.first_row ? 0 : slice;
    case FoldDependence::kRowFold:
      return ctx.fits(ctx.bytes_of(operand.whole_elements), operand.capacity_bytes) &&
                     !at.first_col
                 ? 0
                 : slice;
  }
  return slice;
}

void set_sram_counts(const PlanContext& ctx, FoldShape& fold) {
  const int64_t t = ctx.dims.temporal;
  switch (ctx.dataflow) {
    case Dataflow::kOutputStationary:
      fold.ifmap_sram_reads = fold.rows_used * t;
      fold.filter_sram_reads = t * fold.cols_used;
      fold.ofmap_sram_writes = fold.rows_used * fold.cols_used;
      break;
    case Dataflow::kWeightStationary:
      fold.ifmap_sram_reads = t * fold.rows_used;
      fold.filter_sram_reads = fold.rows_used * fold.cols_used;
      fold.ofmap_sram_writes = t * fold.cols_used;
      break;
    case Dataflow::kInputStationary:
      fold.ifmap_sram_reads = fold.rows_used * fold.cols_used;
      fold.filter_sram_reads = t * fold.rows_used;
      fold.ofmap_sram_writes = t * fold.cols_used;
      break;
    case Dataflow::kRowStationary:
      break;  // planned by row_stationary.h
  }
}

void set_output_traffic(const PlanContext& ctx, const FoldPosition& at, FoldShape& fold) {
  if (!ctx.accumulates()) {
    fold.dram_write_bytes += ctx.bytes_of(fold.rows_used * fold.cols_used);
    return;
  }
  const int64_t slice = ctx.dims.temporal * fold.cols_used;
  if (at.last_row) {
    // Finished outputs leave in the output dtype, resident or not.
    fold.dram_write_bytes += ctx.bytes_of(slice);
  } else if (!ctx.accumulator_fits(at.last_col)) {
    fold.dram_write_bytes += slice * ctx.acc_bytes;  // spill partial sums
  }
  if (!at.first_row && !ctx.accumulator_fits(at.last_col)) {
    fold.dram_read_bytes += slice * ctx.acc_bytes;  // fetch the partial sums back
    fold.ofmap_sram_reads = slice;
  }
}

FoldShape fold_shape(const PlanContext& ctx, int64_t row_fold, int64_t col_fold) {
  const FoldPosition at{.first_row = row_fold == 0,
                        .last_row = row_fold == ctx.row_folds - 1,
                        .first_col = col_fold == 0,
                        .last_col = col_fold == ctx.col_folds - 1};
  FoldShape fold;
  fold.rows_used = ctx.rows_used(at.last_row);
  fold.cols_used = ctx.cols_used(at.last_col);
  fold.cycles = fold_cycles(ctx.dataflow, ctx.array_rows, ctx.array_cols, ctx.dims.temporal);
  fold.macs = checked_mul(fold.rows_used * fold.cols_used, ctx.dims.temporal, "fold MACs");
  set_sram_counts(ctx, fold);
  const int64_t input_elements =
      input_dram_elements(ctx, ctx.ifmap, at) + input_dram_elements(ctx, ctx.filter, at);
  fold.dram_read_bytes = ctx.bytes_of(input_elements);
  set_output_traffic(ctx, at, fold);
  return fold;
}

// Folds differ only by being first, middle or last in their loop, so one column fold is at
// most three runs and the whole GEMM at most three blocks, however many folds it has.
std::vector<FoldRun> column_fold_runs(const PlanContext& ctx, int64_t col_fold) {
  std::vector<FoldRun> runs;
  auto append = [&](int64_t row_fold, int64_t count) {
    if (count > 0) sim::append_run(runs, fold_shape(ctx, row_fold, col_fold), count);
  };
  append(0, 1);
  append(1, ctx.row_folds - 2);
  if (ctx.row_folds > 1) append(ctx.row_folds - 1, 1);
  return runs;
}

std::vector<FoldBlock> fold_blocks(const PlanContext& ctx) {
  std::vector<FoldBlock> blocks;
  auto append = [&](int64_t col_fold, int64_t repeat) {
    if (repeat > 0) sim::append_block(blocks, column_fold_runs(ctx, col_fold), repeat);
  };
  append(0, 1);
  append(1, ctx.col_folds - 2);
  if (ctx.col_folds > 1) append(ctx.col_folds - 1, 1);
  return blocks;
}

PlanContext make_context(const SystolicParams& params, ir::DType element_dtype,
                         const ir::GemmView& view) {
  PlanContext ctx;
  ctx.dataflow = params.dataflow;
  ctx.array_rows = params.rows;
  ctx.array_cols = params.cols;
  ctx.dims = operand_dims(params.dataflow, view.m, view.n, view.k);
  ctx.row_folds = ceil_div(ctx.dims.spatial_rows, params.rows);
  ctx.col_folds = ceil_div(ctx.dims.spatial_cols, params.cols);
  ctx.element_dtype = element_dtype;
  ctx.acc_bytes = ir::dtype_bytes(params.acc_dtype);
  const SystolicBuffers& buffers = params.buffers;
  ctx.ofmap_capacity_bytes = buffer_capacity_bytes(buffers.ofmap_kib, buffers.double_buffered);
  const int64_t ifmap_capacity = buffer_capacity_bytes(buffers.ifmap_kib, buffers.double_buffered);
  const int64_t filter_capacity =
      buffer_capacity_bytes(buffers.filter_kib, buffers.double_buffered);
  const int64_t filter_elements = checked_mul(view.k, view.n, "filter elements");
  switch (params.dataflow) {
    case Dataflow::kOutputStationary:
      ctx.ifmap = make_input("ifmap", FoldDependence::kRowFold, view.ifmap_distinct_elements, ctx,
                             ifmap_capacity);
      ctx.filter =
          make_input("filter", FoldDependence::kColFold, filter_elements, ctx, filter_capacity);
      break;
    case Dataflow::kWeightStationary:
      ctx.ifmap = make_input("ifmap", FoldDependence::kRowFold, view.ifmap_distinct_elements, ctx,
                             ifmap_capacity);
      ctx.filter =
          make_input("filter", FoldDependence::kBoth, filter_elements, ctx, filter_capacity);
      break;
    case Dataflow::kInputStationary:
      ctx.ifmap = make_input("ifmap", FoldDependence::kBoth, view.ifmap_distinct_elements, ctx,
                             ifmap_capacity);
      ctx.filter =
          make_input("filter", FoldDependence::kRowFold, filter_elements, ctx, filter_capacity);
      break;
    case Dataflow::kRowStationary:
      break;  // planned by row_stationary.h
  }
  return ctx;
}

// How DRAM supplies an input operand; `last_col` picks the (possibly narrower) last column fold.
std::string input_residency(const PlanContext& ctx, const InputOperand& operand, bool last_col) {
  switch (operand.dependence) {
    case FoldDependence::kBoth:
      return "fetch_every_fold";
    case FoldDependence::kColFold:
      return ctx.fits(ctx.bytes_of(operand.slice[0][last_col]), operand.capacity_bytes)
                 ? "fetch_once_per_col_fold"
                 : "fetch_every_fold";
    case FoldDependence::kRowFold:
      return ctx.fits(ctx.bytes_of(operand.whole_elements), operand.capacity_bytes)
                 ? "fetch_once_resident"
                 : "fetch_every_fold";
  }
  return "";
}

nlohmann::ordered_json operand_json(std::string_view dependence, std::string full,
                                    std::string last) {
  nlohmann::ordered_json json{{"depends_on", dependence}, {"residency", full}};
  if (last != full) json["residency_last_col_fold"] = last;
  return json;
}

nlohmann::ordered_json mapping_json(const PlanContext& ctx, const SystolicPlan& plan) {
  nlohmann::ordered_json operands;
  for (const InputOperand* operand : {&ctx.ifmap, &ctx.filter}) {
    operands[std::string(operand->name)] =
        operand_json(dependence_name(operand->dependence), input_residency(ctx, *operand, false),
                     input_residency(ctx, *operand, true));
  }
  if (ctx.accumulates()) {
    auto ofmap = [&](bool last_col) {
      return std::string(ctx.accumulator_fits(last_col) ? "accumulate_in_buffer"
                                                        : "spill_partial_sums");
    };
    operands["ofmap"] = operand_json("col_fold", ofmap(false), ofmap(true));
  } else {
    operands["ofmap"] = operand_json(dependence_name(FoldDependence::kBoth), "write_every_fold",
                                     "write_every_fold");
  }
  return {{"dataflow", dataflow_name(ctx.dataflow)},
          {"Sr", ctx.dims.spatial_rows},
          {"Sc", ctx.dims.spatial_cols},
          {"T", ctx.dims.temporal},
          {"row_folds", plan.row_folds},
          {"col_folds", plan.col_folds},
          {"fold_count", plan.fold_count},
          {"gemm_repeats", plan.gemm_repeats},
          {"loop_order", "col_folds_outer_row_folds_inner"},
          {"operands", operands}};
}

// Adds `count` copies of `value` to `total`, refusing to wrap.
void accumulate(int64_t& total, int64_t value, int64_t count, const char* what) {
  total = checked_add(total, checked_mul(value, count, what), what);
}

}  // namespace

void sum_plan_folds(SystolicPlan& plan, int64_t array_cells) {
  int64_t used_cells = 0;  // sum over one GEMM's folds of rows_used * cols_used
  int64_t folds = 0;
  for (const FoldBlock& block : plan.blocks) {
    for (const FoldRun& run : block.runs) {
      const int64_t count = checked_mul(checked_mul(run.count, block.repeat, "fold count"),
                                        plan.gemm_repeats, "fold count");
      const FoldShape& shape = run.tile;
      folds = checked_add(folds, count, "fold count");
      accumulate(used_cells, shape.rows_used * shape.cols_used, count, "mapping efficiency");
      accumulate(plan.compute_cycles, shape.cycles, count, "compute cycles");
      accumulate(plan.macs, shape.macs, count, "MACs");
      accumulate(plan.ifmap_sram_reads, shape.ifmap_sram_reads, count, "ifmap SRAM reads");
      accumulate(plan.filter_sram_reads, shape.filter_sram_reads, count, "filter SRAM reads");
      accumulate(plan.ofmap_sram_writes, shape.ofmap_sram_writes, count, "ofmap SRAM writes");
      accumulate(plan.ofmap_sram_reads, shape.ofmap_sram_reads, count, "ofmap SRAM reads");
      accumulate(plan.dram_read_bytes, shape.dram_read_bytes, count, "DRAM bytes read");
      accumulate(plan.dram_write_bytes, shape.dram_write_bytes, count, "DRAM bytes written");
    }
  }
  plan.fold_count = folds;
  plan.mapping_efficiency =
      static_cast<double>(used_cells) / (static_cast<double>(folds) * array_cells);
}

SystolicPlan plan_op(const SystolicParams& params, const ir::Op& op, double dram_bytes_per_cycle) {
  if (op.kind() != ir::OpKind::kGemm && op.kind() != ir::OpKind::kConv2d) {
    throw_bad_input(op.where, "systolic unit '" + params.name + "' cannot run op '" + op.name +
                                  "' of kind " + std::string(ir::op_kind_name(op.kind())));
  }
  if (params.rows <= 0 || params.cols <= 0) {
    throw_bad_input(op.where, "systolic unit '" + params.name + "' has no PEs (rows " +
                                  std::to_string(params.rows) + ", cols " +
                                  std::to_string(params.cols) + ")");
  }
  ir::validate_op(op);
  // Operands are buffered and fetched as stored (operand_types.h).
  if (params.dataflow == Dataflow::kRowStationary) {
    return plan_row_stationary(params, row_conv_shape(op), systolic_stored_dtype(params, op), true,
                               dram_bytes_per_cycle);
  }
  return plan_gemm(params, ir::gemm_view(op), systolic_stored_dtype(params, op), true);
}

SystolicPlan plan_gemm(const SystolicParams& params, const ir::GemmView& view,
                       ir::DType element_dtype, bool with_mapping_json) {
  if (params.dataflow == Dataflow::kRowStationary) {
    return plan_row_stationary(params, row_conv_shape(view), element_dtype, with_mapping_json, 0.0);
  }
  const PlanContext ctx = make_context(params, element_dtype, view);

  SystolicPlan plan;
  plan.dims = ctx.dims;
  plan.row_folds = ctx.row_folds;
  plan.col_folds = ctx.col_folds;
  plan.gemm_repeats = view.repeats;
  plan.blocks = fold_blocks(ctx);
  sum_plan_folds(plan, params.rows * params.cols);
  // SCALE-Sim v2 reports the index of the last cycle (double_buffered_scratchpad_mem.py:
  // total_cycles = ofmap_serviced_cycles[-1]), one less than the number of cycles.
  if (params.scalesim_compat && plan.compute_cycles > 0) plan.compute_cycles -= 1;
  if (with_mapping_json) plan.mapping = mapping_json(ctx, plan);
  return plan;
}

}  // namespace polyarch::archs::systolic
