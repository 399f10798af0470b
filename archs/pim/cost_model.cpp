#include "archs/pim/cost_model.h"

#include <algorithm>
#include <cmath>

#include "archs/pim/bank_stream.h"
#include "archs/pim/core_timing.h"
#include "base/checked_math.h"
#include "compiler/ir/attention_visibility.h"
#include "compiler/ir/stored_operands.h"

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
  int64_t conversions = 0;  // elements converted from the stored type, an instruction each
  int64_t bank_read_bytes = 0;
  int64_t bank_written_bytes = 0;
};

CoreKernel core_kernel(const PimParams& params, const CoreLoop& loop) {
  if (!params.core) return {};
  const PimCoreParams& core = *params.core;
  const int64_t instructions = core.loop_instructions + loop.loads + loop.stores + loop.additions +
                               loop.multiplications * core.mul_instructions + loop.conversions;
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

// The types a GEMV's operands are stored in where the PUs compute another (gemv_types).
struct GemvTypes {
  ir::DType weights = ir::DType::kFp16;  // as the banks hold them
  ir::DType inputs = ir::DType::kFp16;   // as the host broadcasts them
  ir::DType outputs = ir::DType::kFp16;  // as the host reads the results
  int64_t scales_per_row = 0;            // fp16 group scales beside each weight row
  bool widen_weights = false;            // the PUs convert each weight they stream
  bool widen_inputs = false;             // ... each input element they receive
  bool narrow_outputs = false;           // ... each result they send
};

GemvTypes gemv_types(const PimParams& params, const ir::Op& op) {
  const ir::DType run = params.dtype;
  const ir::DType given = op.dtype.value_or(run);
  const ir::DType activations = ir::is_narrow(given) ? given : run;
  GemvTypes types{.weights = op.weight_format ? op.weight_format->dtype : activations,
                  .inputs = activations,
                  .outputs = activations};
  if (const auto* gemm = std::get_if<ir::GemmAttrs>(&op.attrs); gemm && op.weight_format) {
    types.scales_per_row = ir::weight_scale_count(op) / gemm->n;
  }
  types.widen_weights = types.weights != run;
  types.widen_inputs = types.inputs != run;
  types.narrow_outputs = types.outputs != run;
  return types;
}

// out[M x N] = in[M x K] * W^T with W [N x K] in the banks, M input vectors broadcast. Weights,
// inputs and results move in the types `types` stores them in; each converted element costs a
// lane operation (or a core instruction) beside the MACs: the weights' conversions on every
// burst, the inputs' and results' spread over the bursts of their pass.
PimPlan plan_gemv(const PimParams& params, int64_t m, int64_t n, int64_t k, const GemvTypes& types,
                  std::optional<Partition> partition = std::nullopt) {
  const int64_t pus = params.pu_count();
  const int64_t weight_bits = ir::dtype_bits(types.weights);
  const int64_t burst_elements = params.dram.bytes_per_burst() * 8 / weight_bits;
  // Input vectors beyond the register buffer (held in the PUs' type) are streamed against the
  // weights again.
  const int64_t register_elem = ir::dtype_bytes(params.dtype);
  const int64_t vectors_held =
      std::clamp<int64_t>(params.register_bytes / (k * register_elem), 1, m);
  const int64_t passes = ceil_div(m, vectors_held);
  const int64_t weight_widen_ops = types.widen_weights ? 1 : 0;
  const int64_t per_pass_ops = burst_elements * (vectors_held + weight_widen_ops);
  // A core loads each weight once and each held input vector's element from its scratchpad;
  // a weight stored in another type costs an instruction to convert. A loop iteration takes
  // one weight, or a pair where they are packed below a byte (int4: a byte a pair).
  const int64_t per_loop = weight_bits < 8 ? 2 : 1;
  const CoreKernel kernel =
      core_kernel(params, {.loads = per_loop * (1 + vectors_held),
                           .additions = per_loop * vectors_held,
                           .multiplications = per_loop * vectors_held,
                           .conversions = per_loop * weight_widen_ops,
                           .bank_read_bytes = ir::storage_bytes(per_loop, types.weights)});
  // Bytes of `rows` weight rows of `columns` weights with their scales.
  auto weight_bytes = [&](int64_t rows, int64_t columns) {
    return checked_add(ir::storage_bytes(mul(rows, columns), types.weights),
                       mul(mul(rows, types.scales_per_row), ir::kScaleBytes), "PIM weight bytes");
  };
  // One pass's input and result conversions of one PU, as lane operations over its bursts.
  auto pass_ops = [&](int64_t bytes_per_pu, int64_t inputs, int64_t outputs) {
    const int64_t bursts = std::max<int64_t>(1, ceil_div(bytes_per_pu, params.dram.bytes_per_burst()));
    const int64_t conversions = (types.widen_inputs ? mul(vectors_held, inputs) : 0) +
                                (types.narrow_outputs ? mul(vectors_held, outputs) : 0);
    return per_pass_ops + ceil_div(conversions, bursts);
  };

  auto rows_plan = [&] {
    PimPlan plan;
    plan.kernel = "gemv_rows";
    const int64_t rows_per_pu = ceil_div(n, pus);
    const int64_t bytes_per_pu = weight_bytes(rows_per_pu, k);
    for (int64_t pass = 0; pass < passes; ++pass) {
      add_stream(params, {bytes_per_pu, pass_ops(bytes_per_pu, k, rows_per_pu), kernel}, plan);
    }
    plan.external_write_bytes =
        mul(ir::storage_bytes(mul(m, k), types.inputs), params.pseudo_channels());
    plan.external_read_bytes = ir::storage_bytes(mul(m, n), types.outputs);
    plan.mapping = {{"partition", "rows"}, {"rows_per_pu", rows_per_pu}, {"passes", passes}};
    return plan;
  };
  auto columns_plan = [&] {
    PimPlan plan;
    plan.kernel = "gemv_columns";
    const int64_t k_per_pu = ceil_div(k, pus);
    const int64_t bytes_per_pu = weight_bytes(n, k_per_pu);
    for (int64_t pass = 0; pass < passes; ++pass) {
      // Partial sums leave in fp32: nothing to narrow.
      add_stream(params, {bytes_per_pu, pass_ops(bytes_per_pu, k_per_pu, 0), kernel}, plan);
    }
    // Each PU gets only its slice of the inputs; partial sums leave per PU or per channel.
    plan.external_write_bytes = ir::storage_bytes(mul(m, k), types.inputs);
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
  // Conversions of all PUs: each weight once per pass, each input element a PU holds once,
  // each result (rows) once.
  const int64_t weight_conversions = types.widen_weights ? mul(mul(n, k), passes) : 0;
  rows.converted_elements = weight_conversions +
                            (types.widen_inputs ? mul(mul(m, k), pus) : 0) +
                            (types.narrow_outputs ? mul(m, n) : 0);
  columns.converted_elements = weight_conversions + (types.widen_inputs ? mul(m, k) : 0);
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
                       const GemvTypes& types) {
  const int64_t group = attention.h / attention.kv_heads;
  const int64_t queries = mul(group, attention.s);
  const int64_t matrices = mul(attention.b, attention.kv_heads);
  // The keys some query sees, one range (block-sparse ops are refused: pim_supports): a decode
  // step with a sliding window reads only the window of the KV cache. Within the range every
  // score is computed and the host's softmax masks the ones a query does not see.
  const int64_t keys = ir::visible_keys(attention, 0, attention.s - 1).size();
  // Q K^T: the K caches stacked as one [matrices * keys x d] matrix against each head's
  // queries; P V: the V caches as [matrices * d x keys], reduced over the keys.
  PimPlan scores = plan_gemv(params, queries, mul(matrices, keys), attention.d, types);
  PimPlan context = plan_gemv(params, queries, mul(matrices, attention.d), keys, types);
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

std::optional<std::string> pim_type_refusal(const PimParams& params, const ir::Op& op) {
  const bool narrow = op.dtype && ir::is_narrow(*op.dtype);
  if (!narrow && !op.weight_format) return std::nullopt;
  const std::string unit = "pim unit '" + params.name + "'";
  if (narrow && op.kind() != ir::OpKind::kGemm) {
    return unit + " converts " + std::string(ir::dtype_name(*op.dtype)) +
           " only in GEMVs, which '" + op.name + "' (" + ir::op_type_name(op) + ") is not";
  }
  const ir::DType stored = op.weight_format ? op.weight_format->dtype : *op.dtype;
  const bool float_stored = ir::is_float(stored) || (narrow && ir::is_float(*op.dtype));
  if (float_stored && !ir::is_float(params.dtype)) {
    return unit + " computes " + std::string(ir::dtype_name(params.dtype)) + ": '" + op.name +
           "' in " + std::string(ir::dtype_name(stored)) +
           " would have to be quantised to run there, not converted";
  }
  return std::nullopt;
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
    plan = plan_gemv(params, mul(gemm->m, gemm->batch), gemm->n, gemm->k, gemv_types(params, op),
                     partition);
  } else if (const auto* elementwise = std::get_if<ir::ElementwiseAttrs>(&op.attrs)) {
    plan = plan_elementwise(params, "elementwise", elementwise->elements, elementwise->inputs + 1,
                            1, elementwise->fn == "mul", elem);
  } else if (const auto* softmax = std::get_if<ir::SoftmaxAttrs>(&op.attrs)) {
    // Max, exp and sum, normalise: three reads and one write of the rows.
    plan =
        plan_elementwise(params, "softmax", mul(softmax->rows, softmax->cols), 4, 2, false, elem);
  } else {
    plan = plan_attention(params, std::get<ir::AttentionAttrs>(op.attrs), gemv_types(params, op));
  }
  if (plan.converted_elements > 0) {
    // The lanes' cycles on the conversions at their peak rate (one per lane and PU cycle),
    // within the streams: they pace them only where the PUs become the bound.
    plan.conversion_cycles = static_cast<int64_t>(std::ceil(
        static_cast<double>(plan.converted_elements) /
        static_cast<double>(mul(params.pu_count(), params.lanes)) /
        params.pu_cycles_per_dram_cycle()));
    plan.mapping["converted_elements"] = plan.converted_elements;
    plan.mapping["conversion_cycles"] = plan.conversion_cycles;
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
