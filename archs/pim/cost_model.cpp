#include "archs/pim/cost_model.h"

#include <algorithm>
#include <cmath>

#include "archs/pim/bank_stream.h"
#include "archs/pim/core_timing.h"
#include "base/checked_math.h"
#include "compiler/ir/attention_visibility.h"

namespace polyarch::archs::pim {

namespace {

constexpr int64_t kPartialSumBytes = 4;  // fp32 partial sums

int64_t mul(int64_t a, int64_t b) { return checked_mul(a, b, "PIM work"); }

// The external bus of one pseudo-channel moves one burst per tBL cycles.
int64_t external_cycles(const PimParams& params, int64_t bytes_per_pseudo_channel) {
  return ceil_div(bytes_per_pseudo_channel, params.dram.bytes_per_burst()) *
         params.dram.burst_cycles();
}

// What one PU works through: `bytes_per_pu` of its banks, on each burst `lane_ops_per_burst`
// lane operations (SIMD lanes) or `core_kernel` run on each core's share of the burst.
struct StreamShare {
  int64_t bytes_per_pu = 0;
  int64_t lane_ops_per_burst = 0;
  CoreKernel core_kernel;
};

// Command-clock cycles of a PU's work on one burst: its SIMD lanes' operations, or its cores'
// program on their share of the burst (core_timing.h).
int64_t compute_cycles(const PimParams& params, const StreamShare& share) {
  double pu_cycles = 0;
  if (params.core) {
    const double bytes_per_core =
        static_cast<double>(params.dram.bytes_per_burst()) / static_cast<double>(params.lanes);
    pu_cycles = core_cycles_per_byte(*params.core, share.core_kernel) * bytes_per_core;
  } else {
    pu_cycles = std::ceil(static_cast<double>(share.lane_ops_per_burst) /
                          static_cast<double>(params.lanes));
  }
  return static_cast<int64_t>(std::ceil(pu_cycles / params.pu_cycles_per_dram_cycle()));
}

// Cycles of the PU's command slot per column command: tCCD_L, the PU's arithmetic on one burst,
// and in per-bank mode the pseudo-channel's share: every PU needs its own column command, and
// column commands to different bank groups stay max(tCCD_S, tBL) apart.
int64_t slot_cycles(const PimParams& params, const StreamShare& share) {
  int64_t slot = compute_cycles(params, share);
  if (params.mode == PimMode::kPerBank) {
    const int64_t column_gap =
        std::max<int64_t>({1, params.dram.timing.tCCD_S, params.dram.burst_cycles()});
    slot = std::max(slot, params.pus_per_pseudo_channel() * column_gap);
  }
  return std::max(slot, params.dram.timing.tCCD_L);
}

// A programmable core's loop over one element: its loads, stores, additions and multiplications
// (at the dtype's cost) and the loop's own instructions, against the bytes it reads and writes in
// its banks. Unused (zero) for SIMD lanes.
struct CoreLoop {
  int64_t loads = 0;
  int64_t stores = 0;
  int64_t additions = 0;
  int64_t multiplications = 0;
  int64_t bank_read_bytes = 0;
  int64_t bank_written_bytes = 0;
};

CoreKernel core_kernel(const PimParams& params, const CoreLoop& loop) {
  if (!params.core) return {};
  const PimCoreParams& core = *params.core;
  const int64_t instructions = core.loop_instructions + loop.loads + loop.stores + loop.additions +
                               loop.multiplications * core.mul_instructions;
  const auto streamed = static_cast<double>(loop.bank_read_bytes + loop.bank_written_bytes);
  return {static_cast<double>(instructions) / streamed,
          static_cast<double>(loop.bank_read_bytes) / streamed};
}

// Streams every PU's share and fills timing, commands and utilisation.
void add_stream(const PimParams& params, const StreamShare& share, PimPlan& plan) {
  const int64_t bursts = ceil_div(share.bytes_per_pu, params.dram.bytes_per_burst());
  const int64_t slot = slot_cycles(params, share);
  if (slot > params.dram.timing.tCCD_L) plan.bound = "compute";
  const BankStreamResult stream =
      stream_rows(params.dram, {bursts, params.banks_per_pu, slot, false});
  const int64_t pus = params.pu_count();
  plan.segments.push_back({bursts, compute_cycles(params, share)});
  plan.stream_cycles += stream.cycles;
  plan.internal_bytes += mul(mul(bursts, params.dram.bytes_per_burst()), pus);
  plan.commands +=
      {mul(stream.activates, pus), mul(stream.precharges, pus), mul(stream.column_commands, pus),
       mul(stream.refreshes, params.pseudo_channels())};
}

// Command-clock cycles of one transfer between the host and the PUs: over the host's path to
// the DRAM (its sustained bandwidth, and its latency once per transfer) where the SoC has
// bound it, else over the device's own pseudo-channel buses in parallel.
int64_t transfer_cycles(const PimParams& params, int64_t bytes) {
  if (bytes <= 0) return 0;
  const sim::DramView& path = params.external;
  if (path.dram_bytes_per_second <= 0 && path.dram_latency_s <= 0) {
    return external_cycles(params, ceil_div(bytes, params.pseudo_channels()));
  }
  const double seconds = (path.dram_bytes_per_second > 0
                              ? static_cast<double>(bytes) / path.dram_bytes_per_second
                              : 0.0) +
                         path.dram_latency_s;
  const double clock_hz = static_cast<double>(params.dram.organization.clock_mhz) * 1e6;
  return static_cast<int64_t>(std::ceil(seconds * clock_hz));
}

void finish(const PimParams& params, int64_t lane_ops, PimPlan& plan) {
  const auto activates = static_cast<double>(plan.commands.activates);
  const auto columns = static_cast<double>(plan.commands.column_reads);
  plan.row_buffer_hit_rate = columns > 0 ? 1.0 - activates / columns : 0.0;
  const int64_t io_cycles = transfer_cycles(params, plan.external_write_bytes) +
                            transfer_cycles(params, plan.external_read_bytes);
  if (io_cycles > plan.stream_cycles) plan.bound = "io";
  plan.dram_cycles = plan.stream_cycles + io_cycles;
  const double lane_slots = static_cast<double>(params.pu_count()) *
                            static_cast<double>(params.lanes) * params.pu_cycles_per_dram_cycle() *
                            static_cast<double>(plan.dram_cycles);
  plan.pu_utilization = lane_slots > 0 ? static_cast<double>(lane_ops) / lane_slots : 0.0;
}

// out[M x N] = in[M x K] * W^T with W [N x K] in the banks, M input vectors broadcast.
PimPlan plan_gemv(const PimParams& params, int64_t m, int64_t n, int64_t k, int64_t elem,
                  std::optional<Partition> partition = std::nullopt) {
  const int64_t pus = params.pu_count();
  const int64_t burst_elements = params.dram.bytes_per_burst() / elem;
  // Input vectors beyond the register buffer are streamed against the weights again.
  const int64_t vectors_held = std::clamp<int64_t>(params.register_bytes / (k * elem), 1, m);
  const int64_t passes = ceil_div(m, vectors_held);
  const int64_t per_pass_ops = burst_elements * vectors_held;
  // A core loads each weight once and each held input vector's element from its scratchpad.
  const CoreKernel kernel = core_kernel(params, {.loads = 1 + vectors_held,
                                                 .additions = vectors_held,
                                                 .multiplications = vectors_held,
                                                 .bank_read_bytes = elem});

  auto rows_plan = [&] {
    PimPlan plan;
    plan.kernel = "gemv_rows";
    const int64_t rows_per_pu = ceil_div(n, pus);
    for (int64_t pass = 0; pass < passes; ++pass) {
      add_stream(params, {mul(mul(rows_per_pu, k), elem), per_pass_ops, kernel}, plan);
    }
    plan.external_write_bytes = mul(mul(mul(m, k), elem), params.pseudo_channels());
    plan.external_read_bytes = mul(mul(m, n), elem);
    plan.mapping = {{"partition", "rows"}, {"rows_per_pu", rows_per_pu}, {"passes", passes}};
    return plan;
  };
  auto columns_plan = [&] {
    PimPlan plan;
    plan.kernel = "gemv_columns";
    const int64_t k_per_pu = ceil_div(k, pus);
    for (int64_t pass = 0; pass < passes; ++pass) {
      add_stream(params, {mul(mul(n, k_per_pu), elem), per_pass_ops, kernel}, plan);
    }
    // Each PU gets only its slice of the inputs; partial sums leave per PU or per channel.
    plan.external_write_bytes = mul(mul(m, k), elem);
    const int64_t partial_sources =
        params.reduction == Reduction::kHost ? pus : params.devices * params.dram.organization.channels;
    plan.external_read_bytes = mul(mul(mul(m, n), kPartialSumBytes), partial_sources);
    plan.mapping = {{"partition", "columns"}, {"k_per_pu", k_per_pu}, {"passes", passes},
                    {"reduction", params.reduction == Reduction::kHost ? "host" : "channel_adder"}};
    return plan;
  };
  PimPlan rows = rows_plan();
  PimPlan columns = columns_plan();
  const int64_t lane_ops = mul(mul(m, n), k);
  finish(params, lane_ops, rows);
  finish(params, lane_ops, columns);
  const bool use_rows = partition ? *partition == Partition::kRows
                                  : rows.dram_cycles <= columns.dram_cycles;
  PimPlan& best = use_rows ? rows : columns;
  best.macs = lane_ops;
  best.flops = 2 * lane_ops;
  best.mapping["rows_estimate_cycles"] = rows.dram_cycles;
  best.mapping["columns_estimate_cycles"] = columns.dram_cycles;
  return best;
}

// Element-parallel ops: operands and results stay in the banks, each PU on its share: `passes`
// over it, all reads but the last, which writes the result.
PimPlan plan_elementwise(const PimParams& params, const std::string& kernel, int64_t elements,
                         int64_t passes, int64_t ops_per_element, bool multiplies, int64_t elem) {
  PimPlan plan;
  plan.kernel = kernel;
  const int64_t per_pu = ceil_div(elements, params.pu_count());
  const int64_t burst_elements = params.dram.bytes_per_burst() / elem;
  const CoreKernel core = core_kernel(params, {.loads = passes - 1,
                                               .stores = 1,
                                               .additions = multiplies ? 0 : ops_per_element,
                                               .multiplications = multiplies ? ops_per_element : 0,
                                               .bank_read_bytes = (passes - 1) * elem,
                                               .bank_written_bytes = elem});
  add_stream(params, {mul(mul(per_pu, elem), passes), burst_elements * ops_per_element, core},
             plan);
  plan.flops = mul(elements, ops_per_element);
  finish(params, plan.flops, plan);
  plan.mapping = {{"elements_per_pu", per_pu}, {"passes", passes}};
  return plan;
}

PimPlan plan_attention(const PimParams& params, const ir::AttentionAttrs& attention,
                       int64_t elem) {
  const int64_t group = attention.h / attention.kv_heads;
  const int64_t queries = mul(group, attention.s);
  const int64_t matrices = mul(attention.b, attention.kv_heads);
  // The keys some query sees, one range (block-sparse ops are refused: pim_supports): a decode
  // step with a sliding window reads only the window of the KV cache. Within the range every
  // score is computed and the host's softmax masks the ones a query does not see.
  const int64_t keys = ir::visible_keys(attention, 0, attention.s - 1).size();
  // Q K^T: the K caches stacked as one [matrices * keys x d] matrix against each head's
  // queries; P V: the V caches as [matrices * d x keys], reduced over the keys.
  PimPlan scores = plan_gemv(params, queries, mul(matrices, keys), attention.d, elem);
  PimPlan context = plan_gemv(params, queries, mul(matrices, attention.d), keys, elem);
  PimPlan plan;
  plan.kernel = "attention_decode";
  plan.stream_cycles = scores.stream_cycles + context.stream_cycles;
  plan.segments = scores.segments;
  plan.segments.insert(plan.segments.end(), context.segments.begin(), context.segments.end());
  plan.external_write_bytes = scores.external_write_bytes + context.external_write_bytes;
  plan.external_read_bytes = scores.external_read_bytes + context.external_read_bytes;
  plan.internal_bytes = scores.internal_bytes + context.internal_bytes;
  for (const PimPlan* part : {&scores, &context}) {
    plan.commands += part->commands;
    if (part->bound == "compute") plan.bound = "compute";
  }
  plan.macs = ir::mac_count(ir::Op{"", attention, std::nullopt, {}});
  plan.flops = ir::flop_count(ir::Op{"", attention, std::nullopt, {}});
  // The softmax of the scores runs on the host: scores out, probabilities back (counted in the
  // second GEMV's broadcast).
  finish(params, plan.macs, plan);
  plan.mapping = {{"scores", scores.mapping}, {"context", context.mapping}};
  return plan;
}

}  // namespace

bool pim_supports(const PimParams& params, const ir::Op& op) {
  if (const auto* gemm = std::get_if<ir::GemmAttrs>(&op.attrs)) {
    return gemm->m <= params.max_batch && (gemm->b_shared || gemm->batch == 1);
  }
  if (const auto* elementwise = std::get_if<ir::ElementwiseAttrs>(&op.attrs)) {
    return params.implements(elementwise->fn);
  }
  if (op.kind() == ir::OpKind::kSoftmax) return params.implements("exp");
  if (const auto* attention = std::get_if<ir::AttentionAttrs>(&op.attrs)) {
    // A block-sparse layout's keys are not one range of the stacked caches: not modelled.
    return !attention->block_sparse &&
           attention->s * (attention->h / attention->kv_heads) <= params.max_batch;
  }
  return false;
}

PimPlan plan_op(const PimParams& params, const ir::Op& op, std::optional<Partition> partition) {
  const ir::DType dtype = params.dtype;  // the units convert an op of another type
  const int64_t elem = ir::dtype_bytes(dtype);
  if (!pim_supports(params, op)) {
    throw_bad_input(op.where, "pim unit '" + params.name + "' cannot run op '" + op.name + "' (" +
                                  ir::op_type_name(op) + ")");
  }
  PimPlan plan;
  if (const auto* gemm = std::get_if<ir::GemmAttrs>(&op.attrs)) {
    plan = plan_gemv(params, mul(gemm->m, gemm->batch), gemm->n, gemm->k, elem, partition);
  } else if (const auto* elementwise = std::get_if<ir::ElementwiseAttrs>(&op.attrs)) {
    plan = plan_elementwise(params, "elementwise", elementwise->elements, elementwise->inputs + 1,
                            1, elementwise->fn == "mul", elem);
  } else if (const auto* softmax = std::get_if<ir::SoftmaxAttrs>(&op.attrs)) {
    // Max, exp and sum, normalise: three reads and one write of the rows.
    plan =
        plan_elementwise(params, "softmax", mul(softmax->rows, softmax->cols), 4, 2, false, elem);
  } else {
    plan = plan_attention(params, std::get<ir::AttentionAttrs>(op.attrs), elem);
  }
  plan.mapping["kernel"] = plan.kernel;
  plan.mapping["dtype"] = std::string(ir::dtype_name(dtype));
  record_activity(pim_activity(plan), plan.mapping);
  return plan;
}

PimActivity pim_activity(const PimPlan& plan) {
  return {plan.commands, plan.row_buffer_hit_rate, plan.pu_utilization, plan.internal_bytes,
          plan.external_write_bytes + plan.external_read_bytes};
}

}  // namespace polyarch::archs::pim
