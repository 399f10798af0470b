#include "archs/mimd/mapper.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "archs/simd/streaming_mapper.h"
#include "base/checked_math.h"
#include "compiler/ir/stored_operands.h"

namespace polyarch::archs::mimd {

namespace {

// Steps per core an op is cut into at most: coarser chunks beyond that cost no accuracy worth
// the simulation time.
constexpr int64_t kMaxStepsPerCore = 1024;
constexpr int64_t kAccumulatorBytes = 4;

int64_t mul(int64_t a, int64_t b) { return checked_mul(a, b, "mimd work"); }

struct GemmShape {
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  int64_t batch = 1;
  int64_t a_bytes = 0;  // DRAM footprints, each distinct element once
  int64_t b_bytes = 0;
  int64_t c_bytes = 0;
};

GemmShape gemm_shape(const ir::Op& op, int64_t elem) {
  GemmShape shape;
  if (const auto* gemm = std::get_if<ir::GemmAttrs>(&op.attrs)) {
    shape = {gemm->m, gemm->n, gemm->k, gemm->batch, 0, 0, 0};
    shape.a_bytes = mul(mul(gemm->batch, mul(gemm->m, gemm->k)), elem);
    shape.b_bytes = mul(mul(gemm->b_shared ? 1 : gemm->batch, mul(gemm->k, gemm->n)), elem);
  } else {
    const ir::GemmView view = ir::gemm_view(op);
    shape = {view.m, view.n, view.k, view.repeats, 0, 0, 0};
    shape.a_bytes = mul(mul(view.repeats, view.ifmap_distinct_elements), elem);
    shape.b_bytes = mul(mul(view.repeats, mul(view.k, view.n)), elem);
  }
  shape.c_bytes = mul(mul(shape.batch, mul(shape.m, shape.n)), elem);
  return shape;
}

// What the cores' caches add to a plan: each core's miss window (Little's law) and, with
// write-allocate caches, the read of every line a step stores, sent with the step's loads.
void apply_core_memory(const MimdParams& params, double core_miss_bytes_per_cycle, MimdPlan& plan) {
  plan.core_miss_bytes_per_cycle = core_miss_bytes_per_cycle;
  if (params.core.write_allocate) {
    for (CoreStepRun& run : plan.runs) run.step.load_bytes += run.step.store_bytes;
  }
}

// One grid shape: `rows` x `cols` cores per GEMM, `gemms_per_core` whole GEMMs per core.
MimdPlan gemm_plan(const MimdParams& params, const GemmShape& shape, int64_t elem,
                   ir::DType dtype, int64_t rows, int64_t cols) {
  const int64_t cores_per_gemm = rows * cols;
  const int64_t concurrent_gemms = std::min(shape.batch, params.count / cores_per_gemm);
  const int64_t gemms_per_core = ceil_div(shape.batch, concurrent_gemms);
  const int64_t block_m = ceil_div(shape.m, rows);
  const int64_t block_n = ceil_div(shape.n, cols);
  const int64_t local = params.core.local_kib * 1024;
  // Accumulators take at most half the private memory; larger blocks are done in sub-blocks.
  const int64_t sub_blocks = ceil_div(mul(mul(block_m, block_n), kAccumulatorBytes), local / 2);
  const int64_t sub_m = ceil_div(block_m, sub_blocks);
  // Operand slices double-buffered in the other half.
  int64_t chunk_k = std::max<int64_t>(1, local / 4 / ((sub_m + block_n) * elem));
  chunk_k = std::min(chunk_k, shape.k);
  int64_t k_chunks = ceil_div(shape.k, chunk_k);
  const int64_t max_chunks = std::max<int64_t>(1, kMaxStepsPerCore / (sub_blocks * gemms_per_core));
  if (k_chunks > max_chunks) {
    k_chunks = max_chunks;
    chunk_k = ceil_div(shape.k, k_chunks);
  }
  CoreStep step;
  step.load_bytes = (sub_m + block_n) * chunk_k * elem;
  step.compute_cycles = ceil_div(mul(mul(sub_m, block_n), chunk_k),
                                 params.core_elements_per_cycle(dtype));
  CoreStep last = step;
  last.store_bytes = sub_m * block_n * elem;

  MimdPlan plan;
  plan.kernel = "partitioned_gemm";
  plan.active_cores = concurrent_gemms * cores_per_gemm;
  if (k_chunks > 1) plan.runs.push_back({step, k_chunks - 1});
  plan.runs.push_back({last, 1});
  plan.repeat = sub_blocks * gemms_per_core;
  plan.macs = mul(mul(shape.m, shape.n), mul(shape.k, shape.batch));
  plan.flops = 2 * plan.macs;
  const double issued = static_cast<double>(plan.active_cores) *
                        static_cast<double>(plan.repeat) *
                        static_cast<double>(sub_m * block_n) *
                        static_cast<double>(chunk_k * k_chunks);
  plan.mapping_efficiency = std::min(1.0, static_cast<double>(plan.macs) / issued);
  plan.mapping = {{"kernel", plan.kernel},      {"grid_rows", rows},
                  {"grid_cols", cols},          {"gemms_per_core", gemms_per_core},
                  {"block_m", block_m},         {"block_n", block_n},
                  {"sub_blocks", sub_blocks},   {"chunk_k", chunk_k},
                  {"active_cores", plan.active_cores}};
  return plan;
}

std::vector<GemmGrid> grid_candidates(const MimdParams& params, const GemmShape& shape) {
  const int64_t cores_per_gemm = std::max<int64_t>(1, params.count / shape.batch);
  std::vector<GemmGrid> grids;
  for (int64_t rows = 1; rows <= cores_per_gemm; ++rows) {
    const int64_t cols = cores_per_gemm / rows;
    if (rows > shape.m || cols > shape.n) continue;
    grids.push_back({rows, cols});
  }
  if (grids.empty()) grids.push_back({1, 1});
  return grids;
}

MimdPlan plan_gemm(const MimdParams& params, const ir::Op& op, ir::DType dtype,
                   const MimdMemoryView& memory, double core_miss_bytes_per_cycle,
                   std::optional<GemmGrid> grid) {
  const int64_t elem = ir::dtype_bytes(dtype);
  const GemmShape shape = gemm_shape(op, elem);
  if (grid) {
    MimdPlan plan = gemm_plan(params, shape, elem, dtype, grid->rows, grid->cols);
    apply_core_memory(params, core_miss_bytes_per_cycle, plan);
    return plan;
  }
  MimdPlan best;
  int64_t best_cycles = std::numeric_limits<int64_t>::max();
  for (const GemmGrid& candidate : grid_candidates(params, shape)) {
    MimdPlan plan = gemm_plan(params, shape, elem, dtype, candidate.rows, candidate.cols);
    apply_core_memory(params, core_miss_bytes_per_cycle, plan);
    plan.finish_totals();
    const int64_t cycles = estimate_cycles(params, plan, memory);
    if (cycles < best_cycles) {
      best_cycles = cycles;
      best = std::move(plan);
    }
  }
  return best;
}

MimdPlan plan_attention(const MimdParams& params, const ir::AttentionAttrs& attention,
                        ir::DType dtype) {
  const int64_t elem = ir::dtype_bytes(dtype);
  // K and V as the cache stores them, widened on the lanes when that is not the op's type.
  const int64_t widen_per_pair = ir::kv_widen_ops_per_pair(attention, dtype);
  const int64_t d = attention.d;
  const int64_t block_q = std::min<int64_t>(64, attention.s);
  const int64_t local = params.core.local_kib * 1024;
  // Q block, the score block and the output accumulator stay; K and V blocks double-buffer.
  int64_t block_kv = 512;
  while (block_kv > 16 && (block_q * d * (elem + kAccumulatorBytes) +
                           block_q * block_kv * kAccumulatorBytes +
                           ir::kv_stored_bytes(attention, dtype, 4 * block_kv * d)) >
                              local) {
    block_kv /= 2;
  }
  const int64_t heads = mul(attention.b, attention.h);
  const int64_t items = mul(heads, ceil_div(attention.s, block_q));
  const int64_t active = std::min(params.count, items);
  const int64_t items_per_core = ceil_div(items, active);
  // Mean KV blocks per item from the visible scores (causal masking skips the rest).
  const ir::Op as_op{"", attention, dtype, {}};
  const int64_t scores = ir::mac_count(as_op) / (2 * d);
  const int64_t kv_blocks = std::max<int64_t>(1, ceil_div(ceil_div(scores, items), block_q * block_kv));

  const int64_t fp32_lanes = params.core_elements_per_cycle(ir::DType::kFp32);
  CoreStep step;
  step.load_bytes = ir::kv_stored_bytes(attention, dtype, 2 * block_kv * d);
  step.compute_cycles =
      ceil_div(2 * block_q * block_kv * d, params.core_elements_per_cycle(dtype)) +
      ceil_div(4 * block_q * block_kv + block_q * d, fp32_lanes) +
      ceil_div(block_kv * d * widen_per_pair, params.core_elements_per_cycle(dtype)) +
      ceil_div(block_q * block_kv, params.core.sfu_per_cycle);
  CoreStep first = step;
  first.load_bytes += block_q * d * elem;
  CoreStep last = step;
  last.store_bytes = block_q * d * elem;

  MimdPlan plan;
  plan.kernel = "flash_attention";
  plan.active_cores = active;
  if (kv_blocks == 1) {
    first.store_bytes = last.store_bytes;
    plan.runs.push_back({first, 1});
  } else {
    plan.runs.push_back({first, 1});
    if (kv_blocks > 2) plan.runs.push_back({step, kv_blocks - 2});
    plan.runs.push_back({last, 1});
  }
  plan.repeat = items_per_core;
  plan.macs = ir::mac_count(as_op);
  plan.flops = ir::flop_count(as_op);
  plan.mapping_efficiency =
      static_cast<double>(items) / static_cast<double>(items_per_core * active);
  plan.mapping = {{"kernel", plan.kernel}, {"block_q", block_q},  {"block_kv", block_kv},
                  {"items", items},        {"active_cores", active}, {"kv_blocks", kv_blocks}};
  return plan;
}

MimdPlan plan_streaming(const MimdParams& params, const ir::Op& op, ir::DType dtype) {
  // The op's work and bytes are the same as on a simd unit whose scratchpad is a core's
  // private memory.
  simd::SimdParams as_simd;
  as_simd.scratchpad.kib = params.core.local_kib;
  const simd::StreamingWork work = simd::streaming_work(as_simd, op, dtype);
  MimdPlan plan;
  plan.kernel = work.kernel;
  plan.flops = work.flops;
  plan.mapping_efficiency = 1.0;
  const int64_t traffic = work.dram_read_bytes + work.dram_write_bytes;
  if (traffic == 0 && work.vector_ops == 0) {
    plan.mapping = {{"kernel", plan.kernel}, {"steps", 0}};
    return plan;
  }
  const int64_t active = std::max<int64_t>(1, std::min(params.count, work.parallel_items));
  const int64_t chunk = params.core.local_kib * 1024 / 4;
  const int64_t steps =
      std::clamp<int64_t>(ceil_div(traffic, mul(active, chunk)), 1, kMaxStepsPerCore);
  const int64_t shares = steps * active;
  CoreStep step;
  step.load_bytes = ceil_div(work.dram_read_bytes, shares);
  step.store_bytes = ceil_div(work.dram_write_bytes, shares);
  step.compute_cycles =
      std::max(ceil_div(ceil_div(work.vector_ops, shares), params.core_elements_per_cycle(dtype)),
               ceil_div(ceil_div(work.sfu_ops, shares), params.core.sfu_per_cycle));
  plan.active_cores = active;
  plan.runs.push_back({step, steps});
  plan.mapping = {{"kernel", plan.kernel}, {"active_cores", active}, {"steps", steps}};
  return plan;
}

}  // namespace

int64_t MimdPlan::step_count() const {
  int64_t steps = 0;
  for (const CoreStepRun& run : runs) steps += run.count;
  return steps * repeat;
}

double MimdPlan::miss_window_cycles() const {
  if (core_miss_bytes_per_cycle <= 0 || active_cores <= 0) return 0.0;
  const double core_bytes =
      static_cast<double>(dram_read_bytes + dram_write_bytes) / static_cast<double>(active_cores);
  return core_bytes / core_miss_bytes_per_cycle;
}

void MimdPlan::finish_totals() {
  int64_t loads = 0;
  int64_t stores = 0;
  int64_t cycles = 0;
  for (const CoreStepRun& run : runs) {
    loads = checked_add(loads, mul(run.step.load_bytes, run.count), "bytes");
    stores = checked_add(stores, mul(run.step.store_bytes, run.count), "bytes");
    cycles = checked_add(cycles, mul(run.step.compute_cycles, run.count), "cycles");
  }
  dram_read_bytes = mul(mul(loads, repeat), active_cores);
  dram_write_bytes = mul(mul(stores, repeat), active_cores);
  compute_cycles = dispatch_cycles + mul(cycles, repeat) + barrier_cycles;
}

bool mimd_supports(const ir::Op& op) { return op.kind() != ir::OpKind::kFrontend; }

std::vector<GemmGrid> gemm_grid_candidates(const MimdParams& params, const ir::Op& op) {
  if (op.kind() != ir::OpKind::kGemm && op.kind() != ir::OpKind::kConv2d) return {};
  const int64_t elem = ir::dtype_bytes(params.run_dtype(op));
  return grid_candidates(params, gemm_shape(op, elem));
}

MimdPlan plan_op(const MimdParams& params, const ir::Op& op, const MimdMemoryView& memory,
                 double clock_ghz, std::optional<GemmGrid> grid) {
  const ir::DType dtype = params.run_dtype(op);
  const double core_miss_bytes_per_cycle =
      params.core_miss_bytes_per_cycle(clock_ghz, memory.dram_latency_cycles);
  MimdPlan plan;
  switch (op.kind()) {
    case ir::OpKind::kGemm:
    case ir::OpKind::kConv2d:
      plan = plan_gemm(params, op, dtype, memory, core_miss_bytes_per_cycle, grid);
      break;
    case ir::OpKind::kAttention:
      plan = plan_attention(params, std::get<ir::AttentionAttrs>(op.attrs), dtype);
      apply_core_memory(params, core_miss_bytes_per_cycle, plan);
      break;
    case ir::OpKind::kFrontend:
      throw_bad_input(op.where, "op '" + op.name + "' (" + ir::op_type_name(op) +
                                    ") was not lowered to a canonical op");
    default:
      plan = plan_streaming(params, op, dtype);
      apply_core_memory(params, core_miss_bytes_per_cycle, plan);
      break;
  }
  if (!plan.runs.empty()) {
    plan.dispatch_cycles =
        static_cast<int64_t>(std::ceil(params.dispatch_overhead_ns * clock_ghz));
    plan.barrier_cycles = params.barrier_cycles;
  }
  plan.peak_flops_per_cycle = 2.0 * static_cast<double>(params.count) *
                              static_cast<double>(params.core_elements_per_cycle(dtype));
  plan.finish_totals();
  plan.mapping["dtype"] = std::string(ir::dtype_name(dtype));
  return plan;
}

int64_t estimate_cycles(const MimdParams& params, const MimdPlan& plan,
                        const MimdMemoryView& memory) {
  double total = static_cast<double>(plan.dispatch_cycles + plan.barrier_cycles);
  if (plan.runs.empty()) return static_cast<int64_t>(total);
  const double cores = static_cast<double>(plan.active_cores);
  // Each port serves the cores nearest to it over one link.
  const double cores_per_port =
      std::ceil(cores / static_cast<double>(std::min(params.memory_ports, plan.active_cores)));
  const double link = static_cast<double>(params.noc.link_bytes_per_cycle);
  auto transfer_time = [&](int64_t bytes_per_core) {
    const double bytes = static_cast<double>(bytes_per_core);
    double time = cores_per_port * bytes / link;
    if (memory.dram_bytes_per_cycle > 0) {
      time = std::max(time, cores * bytes / memory.dram_bytes_per_cycle);
    }
    // Each core's own misses in flight (Little's law); the DRAM term above caps their sum.
    if (plan.core_miss_bytes_per_cycle > 0) {
      time = std::max(time, bytes / plan.core_miss_bytes_per_cycle);
    }
    return time;
  };
  // A two-stage pipeline: step i computes while step i+1's operands and step i's results move.
  auto pass_time = [&](int64_t load_after_pass) {
    double time = 0;
    for (std::size_t r = 0; r < plan.runs.size(); ++r) {
      const CoreStep& step = plan.runs[r].step;
      const int64_t next_load =
          r + 1 < plan.runs.size() ? plan.runs[r + 1].step.load_bytes : load_after_pass;
      const double compute = static_cast<double>(step.compute_cycles);
      const double inner = std::max(compute, transfer_time(step.load_bytes + step.store_bytes));
      time += inner * static_cast<double>(plan.runs[r].count - 1);
      time += std::max(compute, transfer_time(next_load + step.store_bytes));
    }
    return time;
  };
  const int64_t first_load = plan.runs.front().step.load_bytes;
  total += transfer_time(first_load) + static_cast<double>(memory.dram_latency_cycles);
  total += pass_time(first_load) * static_cast<double>(plan.repeat - 1) + pass_time(0);
  total += transfer_time(plan.runs.back().step.store_bytes);
  return static_cast<int64_t>(std::ceil(total));
}

}  // namespace polyarch::archs::mimd
