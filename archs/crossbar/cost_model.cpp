#include "archs/crossbar/cost_model.h"

#include <algorithm>
#include <cmath>

#include "base/checked_math.h"

namespace polyarch::archs::crossbar {

namespace {

int64_t mul(int64_t a, int64_t b) { return checked_mul(a, b, "crossbar work"); }

}  // namespace

bool crossbar_supports(const ir::Op& op) {
  if (const auto* gemm = std::get_if<ir::GemmAttrs>(&op.attrs)) {
    return gemm->b_shared;  // a weight; per-batch B (attention's K, V) is not static
  }
  return op.kind() == ir::OpKind::kConv2d;
}

ir::DType crossbar_run_dtype(const ir::Op& op) {
  const ir::DType given = op.dtype.value_or(ir::DType::kInt16);
  return ir::is_narrow(given) ? ir::DType::kInt8 : given;
}

int64_t max_replicas(const CrossbarParams& params, const ir::Op& op, ArrayBudget budget) {
  return plan_op(params, op, std::nullopt, budget).replicas;
}

CrossbarPlan plan_op(const CrossbarParams& params, const ir::Op& op,
                     std::optional<int64_t> replicas, ArrayBudget budget) {
  if (!crossbar_supports(op)) {
    throw_bad_input(op.where, "crossbar unit '" + params.name + "' cannot run op '" + op.name +
                                  "' (" + ir::op_type_name(op) + "): its weights are not static");
  }
  const int64_t elem = ir::dtype_bytes(crossbar_run_dtype(op));
  const ir::GemmView view = ir::gemm_view(op);
  // A GEMM batch shares its weight: every batch entry's rows are more input vectors.
  const auto* gemm = std::get_if<ir::GemmAttrs>(&op.attrs);
  const int64_t weight_sets = gemm ? 1 : view.repeats;
  CrossbarPlan plan;
  plan.mvms = gemm ? mul(view.m, gemm->batch) : view.m;
  plan.row_blocks = ceil_div(view.k, params.rows);
  plan.col_blocks = ceil_div(mul(view.n, params.cells_per_weight()), params.cols);
  plan.arrays_needed = mul(mul(plan.row_blocks, plan.col_blocks), weight_sets);
  const int64_t available = budget.arrays > 0 ? std::min(budget.arrays, params.array_count())
                                              : params.array_count();
  plan.arrays_allocated = available;
  const int64_t weight_cells =
      mul(mul(view.k, view.n), mul(params.cells_per_weight(), weight_sets));
  if (plan.arrays_needed <= available) {
    plan.replicas = std::clamp<int64_t>(available / plan.arrays_needed, 1, plan.mvms);
    if (replicas) plan.replicas = std::clamp<int64_t>(*replicas, 1, plan.replicas);
    if (!budget.resident) {
      // Other ops' weights hold the arrays between runs: this op writes every copy of its
      // weights before its waves, row by row, all arrays in parallel (one pass of writes).
      plan.reprogrammed = true;
      plan.program_ns = static_cast<double>(params.rows) * params.cell.write_ns_per_row;
      plan.activity.cells_reprogrammed = mul(weight_cells, plan.replicas);
    }
  } else {
    plan.reprogrammed = true;
    plan.passes = ceil_div(plan.arrays_needed, available);
    // Each pass reprograms the arrays it uses, row by row, all arrays in parallel.
    plan.program_ns = static_cast<double>(plan.passes) * static_cast<double>(params.rows) *
                      params.cell.write_ns_per_row;
    plan.activity.cells_reprogrammed = weight_cells;
  }
  const double conversion_ns =
      static_cast<double>(params.adc.columns_per_adc) / params.adc.sample_rate_gsps;
  plan.input_slices = params.input_slices(op.signed_input.value_or(false));
  const int64_t slices = plan.input_slices;
  // One MVM alone: every input slice is read and its columns converted, then shift-and-add.
  plan.mvm_latency_ns =
      static_cast<double>(slices) * (params.read_ns + conversion_ns) + params.peripheral_ns;
  plan.last_block_columns =
      mul(view.n, params.cells_per_weight()) - (plan.col_blocks - 1) * params.cols;

  const int64_t weight_columns = mul(mul(view.n, params.cells_per_weight()), weight_sets);
  plan.activity.adc_conversions = mul(mul(plan.mvms, slices), mul(plan.row_blocks, weight_columns));
  plan.activity.dac_drives =
      mul(mul(plan.mvms, slices), mul(mul(view.k, plan.col_blocks), weight_sets));
  plan.activity.cell_reads = mul(mul(plan.mvms, slices), mul(view.k, weight_columns));
  plan.macs = ir::mac_count(op);
  const int64_t inputs =
      gemm ? mul(plan.mvms, view.k) : mul(view.repeats, view.ifmap_distinct_elements);
  plan.input_bytes = mul(inputs, elem);
  plan.vector_input_bytes = mul(mul(view.k, weight_sets), elem);
  plan.vector_output_bytes = mul(mul(view.n, weight_sets), elem);
  plan.output_bytes = mul(mul(plan.mvms, mul(view.n, weight_sets)), elem);
  plan.weight_bytes = mul(mul(mul(view.k, view.n), weight_sets), elem);
  // Inputs do not stay on the unit between passes; reprogrammed weights come from DRAM once
  // (the write drivers of every copy take the same row).
  plan.dram_read_bytes =
      mul(plan.input_bytes, plan.passes) + (plan.reprogrammed ? plan.weight_bytes : 0);
  plan.dram_write_bytes = plan.output_bytes;
  plan.mapping = {{"row_blocks", plan.row_blocks},
                  {"col_blocks", plan.col_blocks},
                  {"arrays_needed", plan.arrays_needed},
                  {"arrays_available", params.array_count()},
                  {"arrays_allocated", available},
                  {"replicas", plan.replicas},
                  {"passes", plan.passes},
                  {"weights_resident", !plan.reprogrammed},
                  {"input_slices", slices},
                  {"mvms", plan.mvms},
                  {"mvm_latency_ns", plan.mvm_latency_ns},
                  {"program_ns", plan.program_ns}};
  if (plan.reprogrammed) {
    // Each pass rewrites the arrays it uses once, so one run of the op writes a cell at most
    // `passes` times: the op runs endurance / passes times before its most-written cells wear out.
    plan.mapping["runs_to_wear_out"] =
        params.cell.endurance_cycles / static_cast<double>(plan.passes);
  }
  record_activity(plan.activity, plan.mapping);
  return plan;
}

}  // namespace polyarch::archs::crossbar
