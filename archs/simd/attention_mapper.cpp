#include "archs/simd/attention_mapper.h"

#include <algorithm>
#include <limits>

#include "archs/simd/flash2_launch.h"
#include "archs/simd/gemm_mapper.h"
#include "archs/simd/item_dispatch.h"
#include "archs/simd/library_math.h"
#include "archs/simd/step_cost.h"
#include "archs/simd/streaming_mapper.h"
#include "base/checked_math.h"
#include "compiler/ir/attention_visibility.h"
#include "compiler/ir/stored_operands.h"

namespace polyarch::archs::simd {

namespace {

constexpr int64_t kRegisterShare = 2;  // as for GEMM accumulators: half the register file
// Rows of one synchronous warp-level MMA for 16-bit operands (PTX ISA, mma.sync m16n8k16): a
// FlashAttention-2 work item pads its query rows to it rather than to the warpgroup MMA's m64.
constexpr int64_t kSyncMmaRows = 16;

// The matrix path a flash kernel issues: FlashAttention-2's mma.sync at the engine's
// synchronous rate, else the engine's full rate with its own smallest tile.
struct MmaPath {
  int64_t macs_per_cycle = 0;  // one core's
  int64_t rows = 1;            // M granularity
};

MmaPath flash_mma_path(const SimdParams& params, ir::AttentionKernel kernel, ir::DType dtype) {
  if (kernel == ir::AttentionKernel::kFlash2) {
    return {params.core_sync_matrix_macs_per_cycle(dtype), kSyncMmaRows};
  }
  return {params.core_matrix_macs_per_cycle(dtype), params.matrix_engine.min_tile_m};
}

// Whether the query heads that share a KV head are packed into the rows of one work item, as
// FlashAttention-3 does (hopper/heuristics.h, should_pack_gqa) when a query block would be
// mostly padding otherwise: packing when the rows' share of the padded block is below 0.9 of
// what packing gives. Decode steps (s = 1) of grouped-query attention pack.
bool packs_query_groups(const ir::AttentionAttrs& attention, int64_t block_q) {
  const int64_t group = attention.h / attention.kv_heads;
  if (group <= 1) return false;
  const double unpacked = static_cast<double>(attention.s) /
                          static_cast<double>(round_up(attention.s, block_q));
  const double packed = static_cast<double>(attention.s * group) /
                        static_cast<double>(round_up(attention.s * group, block_q));
  return unpacked < 0.9 * packed;
}

// KV blocks of `block_kv` keys, aligned from key 0, that hold a key some query of the range sees
// under a block-sparse layout (the union of visible_key_runs; a partly visible block is read
// whole).
int64_t visited_sparse_blocks(const ir::AttentionAttrs& attention, int64_t first_query,
                              int64_t last_query, int64_t block_kv) {
  int64_t count = 0;
  int64_t last_counted = -1;
  for (const ir::KeyRange& run : ir::visible_key_runs(attention, first_query, last_query)) {
    const int64_t first_block = std::max(run.first / block_kv, last_counted + 1);
    const int64_t last_block = (run.end - 1) / block_kv;
    if (last_block >= first_block) count += last_block - first_block + 1;
    last_counted = std::max(last_counted, last_block);
  }
  return count;
}

// KV blocks each query block visits, per KV split: those holding the keys its queries see
// (ir::visible_keys; a causal mask, a window or a block-sparse layout hides the rest). A
// window's range may start mid-block: blocks are aligned to block_kv from key 0, so that block
// is read whole. `group` query rows share a position (packed query heads, position-major), 1
// otherwise. In query-block order, the order a library launches them in.
std::vector<int64_t> kv_blocks_per_query_block(const ir::AttentionAttrs& attention,
                                               const FlashTiling& tiling, int64_t group) {
  const int64_t rows = checked_mul(attention.s, group, "query rows");
  const int64_t q_blocks = ceil_div(rows, tiling.block_q);
  const int64_t kv_per_split = ceil_div(attention.kv_len, tiling.kv_split);
  std::vector<int64_t> blocks_of;
  blocks_of.reserve(static_cast<std::size_t>(q_blocks));
  for (int64_t block = 0; block < q_blocks; ++block) {
    const int64_t first_query = block * tiling.block_q / group;
    const int64_t last_query = (std::min(rows, (block + 1) * tiling.block_q) - 1) / group;
    if (attention.block_sparse) {
      // Each split takes its share of the visited blocks.
      blocks_of.push_back(
          ceil_div(visited_sparse_blocks(attention, first_query, last_query, tiling.block_kv),
                   tiling.kv_split));
      continue;
    }
    const ir::KeyRange seen = ir::visible_keys(attention, first_query, last_query);
    const int64_t keys =
        attention.window > 0
            ? round_up(seen.end, tiling.block_kv) - seen.first / tiling.block_kv * tiling.block_kv
            : seen.end;
    // Each split covers its share of the visible keys.
    const int64_t per_split = std::min(kv_per_split, ceil_div(keys, tiling.kv_split));
    blocks_of.push_back(ceil_div(per_split, tiling.block_kv));
  }
  return blocks_of;
}

// DRAM bytes a run of `core_steps` block-steps (over all cores) reads and writes in all.
struct RunTraffic {
  int64_t reads = 0;
  int64_t writes = 0;
  int64_t core_steps = 0;
};

// Adds the steps of items dispatched onto the cores (item_dispatch.h): each span is steps with
// that many active cores (L2 pressure as in a wave of them), `overhead_per_step` cycles more
// (the items' Q fetch and O store spread over their blocks), and the traffic by core-steps done:
// every step moves its cores' share, a span's first step the rounding remainder. Returns the
// core-steps the run spans (steps x all cores), for the mapping efficiency.
int64_t add_dispatched_items(KernelPlan& plan, const SimdParams& params, const CoreWork& work,
                             const std::vector<ActiveSpan>& spans, const RunTraffic& traffic,
                             int64_t overhead_per_step) {
  int64_t core_steps_done = 0;
  int64_t reads_done = 0;
  int64_t writes_done = 0;
  int64_t spanned = 0;
  auto share = [&](int64_t total) {
    return static_cast<int64_t>(static_cast<long double>(total) * core_steps_done /
                                traffic.core_steps);
  };
  for (const ActiveSpan& span : spans) {
    CoreWork span_work = work;
    span_work.active_cores = span.active_cores;
    KernelStep step = step_cost(params, span_work);
    step.cycles += overhead_per_step;
    core_steps_done += checked_mul(span.steps, span.active_cores, "steps");
    spanned += checked_mul(span.steps, params.count, "steps");
    const int64_t span_reads = share(traffic.reads) - reads_done;
    const int64_t span_writes = share(traffic.writes) - writes_done;
    reads_done += span_reads;
    writes_done += span_writes;
    step.dram_read_bytes = span_reads / span.steps;
    step.dram_write_bytes = span_writes / span.steps;
    KernelStep first = step;
    first.dram_read_bytes += span_reads - step.dram_read_bytes * span.steps;
    first.dram_write_bytes += span_writes - step.dram_write_bytes * span.steps;
    if (span.steps == 1) {
      plan.add_block({{first, 1}}, 1);
    } else {
      plan.add_block({{first, 1}, {step, span.steps - 1}}, 1);
    }
  }
  return spanned;
}

}  // namespace

bool runs_only_fused(const ir::AttentionAttrs& attention) {
  return attention.kernel == ir::AttentionKernel::kFlash2;
}

std::optional<FlashTiling> library_tiling(const SimdParams& params,
                                          const ir::AttentionAttrs& attention) {
  if (attention.kernel != ir::AttentionKernel::kFlash2) return std::nullopt;
  // A decode step of grouped-query attention runs its query heads as the rows of their KV head
  // (flash_api.cpp, seqlenq_ngroups_swapped: one query, more query than KV heads, no window).
  const bool swapped = attention.s == 1 && attention.h > attention.kv_heads &&
                       attention.window == 0 && attention.d % 8 == 0;
  const int64_t heads =
      checked_mul(attention.b, swapped ? attention.kv_heads : attention.h, "heads");
  const int64_t queries = swapped ? attention.h / attention.kv_heads : attention.s;
  const int64_t splits =
      flash2_kv_splits(heads, queries, attention.kv_len, attention.d, params.count);
  const std::optional<Flash2Tile> tile =
      flash2_tile(attention.d, splits, params.scratchpad.kib * 1024);
  if (!tile) return FlashTiling{0, 0, splits};  // no tile: the library refuses the head dim
  return FlashTiling{tile->block_q, tile->block_kv, splits};
}

FlashCandidates flash_candidates(const SimdParams& params, const ir::AttentionAttrs& attention) {
  // A library's launch is not searched: its one tiling is the candidate.
  if (const std::optional<FlashTiling> library = library_tiling(params, attention)) {
    return {{library->block_q}, {library->block_kv}, {library->kv_split}};
  }
  return {{16, 32, 64, 128, 256}, {32, 64, 128, 256}, {1, 2, 4, 8, 16, 32, 64}};
}

std::optional<KernelPlan> plan_flash_tiling(const SimdParams& params,
                                            const ir::AttentionAttrs& attention, ir::DType dtype,
                                            const FlashTiling& tiling,
                                            int64_t dram_latency_cycles) {
  const int64_t elem = ir::dtype_bytes(dtype);
  const int64_t d = attention.d;
  // A cache stored in another type is widened on the lanes, block by block.
  const int64_t widen_ops = tiling.block_kv * d * ir::kv_widen_ops_per_pair(attention, dtype);
  const MmaPath mma = flash_mma_path(params, attention.kernel, dtype);
  const bool engine = mma.macs_per_cycle > 0;
  if (engine && tiling.block_q < mma.rows) return std::nullopt;
  const bool flash2 = attention.kernel == ir::AttentionKernel::kFlash2;
  if (flash2) {
    // The library's own launch (flash2_launch.h): its KV splits and its tile, nothing else.
    const FlashTiling library = *library_tiling(params, attention);
    if (library.block_q != tiling.block_q || library.block_kv != tiling.block_kv ||
        library.kv_split != tiling.kv_split) {
      return std::nullopt;
    }
  }
  // Registers: the S block and the O accumulator; scratchpad: Q and double-buffered K, V.
  const int64_t register_bytes = (tiling.block_q * tiling.block_kv + tiling.block_q * d) *
                                 kAccumulatorBytes * kRegisterShare;
  if (register_bytes > params.vector.registers_kib * 1024) return std::nullopt;
  const int64_t staging_bytes =
      tiling.block_q * d * elem + ir::kv_stored_bytes(attention, dtype, 2 * 2 * tiling.block_kv * d);
  if (staging_bytes > params.scratchpad.kib * 1024) return std::nullopt;
  if (!flash2 && tiling.kv_split > 1 && tiling.kv_split * tiling.block_kv > attention.kv_len) {
    return std::nullopt;
  }

  // Work items: one per (sequence, query head or packed group, query block, KV split).
  const bool packed = packs_query_groups(attention, tiling.block_q);
  const int64_t group = packed ? attention.h / attention.kv_heads : 1;
  const int64_t heads =
      checked_mul(attention.b, packed ? attention.kv_heads : attention.h, "heads");
  const int64_t q_blocks = ceil_div(checked_mul(attention.s, group, "rows"), tiling.block_q);
  const int64_t items = checked_mul(checked_mul(heads, q_blocks, "items"), tiling.kv_split, "items");
  const std::vector<int64_t> blocks_of = kv_blocks_per_query_block(attention, tiling, group);
  int64_t blocks_per_head = 0;
  for (int64_t blocks : blocks_of) {
    blocks_per_head = checked_add(blocks_per_head, checked_mul(blocks, tiling.kv_split, "blocks"),
                                  "blocks");
  }
  const int64_t total_blocks = checked_mul(blocks_per_head, heads, "blocks");
  const int64_t mean_blocks = std::max<int64_t>(1, ceil_div(total_blocks, items));

  CoreWork work;
  const int64_t macs = 2 * tiling.block_q * tiling.block_kv * d;
  if (engine) {
    work.matrix_macs = 2 * round_up(tiling.block_q, mma.rows) * tiling.block_kv * d;
    work.matrix_macs_per_cycle = mma.macs_per_cycle;
  } else {
    work.vector_ops = macs;
  }
  // Online softmax per score: scale, running max, subtract, sum (4 lane ops) and one exp; the
  // output rows are rescaled once per block.
  work.vector_ops += 4 * tiling.block_q * tiling.block_kv + tiling.block_q * d + widen_ops;
  work.vector_ops_per_cycle = params.core_vector_elements_per_cycle(ir::DType::kFp32);
  work.sfu_ops = tiling.block_q * tiling.block_kv;
  work.scratchpad_bytes = ir::kv_stored_bytes(attention, dtype, 2 * tiling.block_kv * d);
  work.l2_bytes = work.scratchpad_bytes;
  work.latency_floor_cycles = params.l2.hit_latency_cycles;  // double-buffered K/V: one ahead
  // FlashAttention-3 hides a block's softmax under matrix work: two consumer warpgroups
  // ping-pong, one's softmax running while the other's warpgroup MMAs do, and each pipelines its
  // next QK^T under its current softmax (Shah et al., "FlashAttention-3", 2024, section 3.1), so
  // its step is the longest of the matrix, lane and SFU terms. FlashAttention-2's warps issue a
  // block's mma.sync products and then its softmax, one after the other.
  work.serialize_matrix_and_vector = attention.kernel == ir::AttentionKernel::kFlash2;

  // DRAM: Q and O once; K and V once when the heads in flight keep them in L2, else once per
  // item that reads them. "Once" is the keys some query sees: a decode step with a window
  // reads only the window of the KV cache, one under a block-sparse layout only its row's
  // visible blocks.
  int64_t seen_keys = 0;
  for (const ir::KeyRange& run : ir::visible_key_runs(attention, 0, attention.s - 1)) {
    seen_keys += run.size();
  }
  const int64_t kv_bytes_per_head = ir::kv_stored_bytes(attention, dtype, 2 * seen_keys * d);
  const int64_t kv_heads_total = checked_mul(attention.b, attention.kv_heads, "heads");
  const int64_t items_per_kv_head = ceil_div(items, kv_heads_total);
  const int64_t heads_in_flight =
      std::min(kv_heads_total, ceil_div(std::min(items, params.count), items_per_kv_head));
  const bool kv_in_l2 = static_cast<double>(heads_in_flight * kv_bytes_per_head) <=
                        params.l2.capacity_mib * 1024.0 * 1024.0;
  const int64_t q_bytes =
      checked_mul(checked_mul(attention.b * attention.h, attention.s, "bytes"), d * elem, "bytes");
  const int64_t kv_reads = kv_in_l2 ? checked_mul(kv_heads_total, kv_bytes_per_head, "bytes")
                                    : checked_mul(total_blocks, work.l2_bytes, "bytes");
  const int64_t o_bytes = q_bytes;

  KernelPlan plan;
  plan.kernel = "flash_attention";
  const int64_t waves = ceil_div(items, params.count);
  const int64_t full_waves = items / params.count;
  const int64_t last_items = items % params.count;
  // Per item: its Q block fetched before its first block (no item read it before: from DRAM,
  // through the L2), its O block stored after.
  const int64_t item_overhead = std::max(params.l2.hit_latency_cycles, dram_latency_cycles) +
                                ceil_div(tiling.block_q * d * elem, params.core_bytes_per_cycle);
  // Core-steps the run spans (steps x cores), for the mapping efficiency.
  int64_t spanned_core_steps = checked_mul(waves * params.count, mean_blocks, "steps");
  int64_t resident = 1;
  if (flash2) {
    // FlashAttention-2 launches its items in grid order, query block fastest, then KV split,
    // then sequence and head (flash_fwd_launch_template.h: grid(num_m_block, b, h), the
    // split-KV kernel's grid(num_m_block, splits, b * h)), and an SM holds as many as its
    // shared memory holds their Q, K and V blocks (the library single-buffers K and V: its
    // kernel traits' kSmemSize) and its register file their S and O accumulators.
    const int64_t library_staging = (tiling.block_q + 2 * tiling.block_kv) * d * elem;
    const int64_t accumulator_bytes =
        (tiling.block_q * tiling.block_kv + tiling.block_q * d) * kAccumulatorBytes;
    resident = std::max<int64_t>(
        1, std::min(params.scratchpad.kib * 1024 / library_staging,
                    params.vector.registers_kib * 1024 / accumulator_bytes));
    std::vector<int64_t> pattern;
    for (int64_t split = 0; split < tiling.kv_split; ++split) {
      for (int64_t blocks : blocks_of) {
        if (blocks > 0) pattern.push_back(blocks);
      }
    }
    // A CTA ends with its epilogue before its slot frees (the library's kernel is not
    // persistent, unlike FlashAttention-3's, whose epilogue overlaps the next tile): O scaled by
    // the row sums on the lanes, then written to shared memory and read back for the coalesced
    // store (compute_attn_1rowblock's sO copy).
    const int64_t o_elements = tiling.block_q * d;
    const int64_t epilogue =
        ceil_div(o_elements, work.vector_ops_per_cycle) +
        ceil_div(2 * o_elements * elem, params.scratchpad.bytes_per_cycle);
    plan.vector_ops[ir::DType::kFp32] += checked_mul(items, o_elements, "ops");
    plan.scratchpad_bytes += checked_mul(items, o_elements * elem, "bytes");
    const int64_t overhead_per_step =
        total_blocks > 0
            ? ceil_div(checked_mul(items, item_overhead + epilogue, "cycles"), total_blocks)
            : 0;
    spanned_core_steps = add_dispatched_items(
        plan, params, work, dispatch_items(pattern, heads, params.count, resident),
        {q_bytes + kv_reads, o_bytes, total_blocks}, overhead_per_step);
  } else {
    // Items of the mean length in waves of one per core.
    auto wave = [&](int64_t wave_items) -> std::vector<StepRun> {
      CoreWork wave_work = work;
      wave_work.active_cores = wave_items;
      KernelStep step = step_cost(params, wave_work);
      const int64_t reads = static_cast<int64_t>(static_cast<double>(q_bytes + kv_reads) *
                                                 static_cast<double>(wave_items) /
                                                 static_cast<double>(items));
      const int64_t writes = static_cast<int64_t>(static_cast<double>(o_bytes) *
                                                  static_cast<double>(wave_items) /
                                                  static_cast<double>(items));
      step.dram_read_bytes = reads / mean_blocks;
      KernelStep first = step;
      first.dram_read_bytes += reads - step.dram_read_bytes * mean_blocks;
      first.cycles += item_overhead;
      KernelStep last = step;
      last.dram_write_bytes = writes;
      if (mean_blocks == 1) {
        first.dram_write_bytes = writes;
        return {{first, 1}};
      }
      return {{first, 1}, {step, mean_blocks - 2}, {last, 1}};
    };
    if (full_waves > 0) plan.add_block(wave(params.count), full_waves);
    if (last_items > 0) plan.add_block(wave(last_items), 1);
  }
  if (tiling.kv_split > 1) {
    // Combining the splits: read each split's partial O and log-sum-exp, rescale, sum.
    StreamingWork combine;
    combine.kernel = "split_combine";
    const int64_t query_rows = checked_mul(attention.b * attention.h, attention.s, "rows");
    combine.vector_ops = checked_mul(3 * tiling.kv_split, query_rows * d, "ops");
    combine.l2_bytes = checked_mul(tiling.kv_split, query_rows * d * kAccumulatorBytes,
                                   "bytes");
    combine.parallel_items = query_rows;
    const KernelPlan combine_plan = plan_streaming(params, combine);
    for (const StepBlock& block : combine_plan.blocks) plan.add_block(block.runs, block.repeat);
    plan.add_activity(combine_plan);
  }
  plan.macs = ir::mac_count(ir::Op{"", attention, dtype, {}});
  plan.flops = ir::flop_count(ir::Op{"", attention, dtype, {}});
  plan.l2_bytes = checked_mul(total_blocks, work.l2_bytes, "bytes") + q_bytes + o_bytes;
  // Activity: the MACs on the engine (else on the lanes at the fp32 rate, as timed above); the
  // softmax and rescale lane ops, exps and K/V staging of every block the items visit.
  if (engine) plan.matrix_macs[dtype] = plan.macs;
  plan.vector_ops[ir::DType::kFp32] += checked_add(
      engine ? 0 : plan.macs,
      checked_mul(total_blocks,
                  4 * tiling.block_q * tiling.block_kv + tiling.block_q * d + widen_ops,
                  "ops"),
      "ops");
  plan.sfu_ops += checked_mul(total_blocks, work.sfu_ops, "ops");
  plan.scratchpad_bytes += checked_mul(total_blocks, work.scratchpad_bytes, "bytes");
  plan.peak_flops_per_cycle =
      2.0 * static_cast<double>(engine ? mma.macs_per_cycle
                                       : params.core_vector_elements_per_cycle(dtype)) *
      static_cast<double>(params.count);
  const double issued = static_cast<double>(spanned_core_steps) * static_cast<double>(macs);
  plan.mapping_efficiency = std::min(1.0, static_cast<double>(plan.macs) / issued);
  plan.mapping = {{"kernel", plan.kernel},     {"block_q", tiling.block_q},
                  {"block_kv", tiling.block_kv}, {"kv_split", tiling.kv_split},
                  {"packed_query_heads", group},
                  {"items", items},            {"waves", waves},
                  {"kv_blocks", total_blocks}, {"kv_in_l2", kv_in_l2}};
  // Named only where stated, so that default reports read as before.
  if (attention.kernel != ir::AttentionKernel::kFlash3) {
    plan.mapping["attention_kernel"] = std::string(ir::attention_kernel_name(attention.kernel));
  }
  if (flash2) plan.mapping["resident_items_per_core"] = resident;
  return plan;
}

KernelPlan plan_unfused_attention(const SimdParams& params, const ir::AttentionAttrs& attention,
                                  ir::DType dtype, const MemoryView& memory,
                                  int64_t launch_cycles) {
  const int64_t elem = ir::dtype_bytes(dtype);
  const int64_t heads = checked_mul(attention.b, attention.h, "heads");
  const int64_t scores = checked_mul(heads * attention.s, attention.kv_len, "scores");
  // K and V are the GEMMs' B operands, read as the cache stores them.
  const int64_t cache_bytes = ir::kv_cache_bytes(attention, dtype) / 2;
  const double stored_fraction =
      static_cast<double>(cache_bytes) /
      static_cast<double>(ir::kv_cache_elements(attention) / 2 * elem);
  GemmProblem qk{attention.s, attention.kv_len, attention.d, heads, dtype,
                 heads * attention.s * attention.d * elem, cache_bytes, scores * elem};
  GemmProblem pv{attention.s, attention.d, attention.kv_len, heads, dtype, scores * elem,
                 cache_bytes, heads * attention.s * attention.d * elem};
  for (GemmProblem* problem : {&qk, &pv}) {
    problem->b_stored_fraction = stored_fraction;
    problem->widen_ops_per_pair = ir::kv_widen_ops_per_pair(attention, dtype);
  }
  // The softmax kernel a library runs between the two GEMMs (library_math.h), after scaling
  // and masking each score (2 lane ops).
  const ElementCost per_score = softmax_element_cost(dtype);
  StreamingWork softmax;
  softmax.kernel = "softmax";
  softmax.vector_ops = checked_mul(scores, per_score.lane_ops + 2, "ops");
  softmax.sfu_ops = checked_mul(scores, per_score.sfu_ops, "ops");
  softmax.dram_read_bytes = scores * elem;
  softmax.dram_write_bytes = scores * elem;
  softmax.l2_bytes = 2 * scores * elem;
  softmax.parallel_items = heads * attention.s;
  softmax.dtype = opmath_dtype(dtype);

  KernelPlan plan;
  plan.kernel = "unfused_attention";
  const KernelPlan parts[] = {plan_gemm(params, qk, memory), plan_streaming(params, softmax),
                              plan_gemm(params, pv, memory)};
  for (const KernelPlan& part : parts) {
    // Each kernel's launch becomes an idle step between the previous kernel and this one.
    plan.add_block({{KernelStep{launch_cycles, 0, 0, Bound::kLatency}, 1}}, 1);
    for (const StepBlock& block : part.blocks) plan.add_block(block.runs, block.repeat);
    plan.l2_bytes += part.l2_bytes;
    plan.add_activity(part);
  }
  plan.macs = ir::mac_count(ir::Op{"", attention, dtype, {}});
  plan.flops = ir::flop_count(ir::Op{"", attention, dtype, {}});
  plan.peak_flops_per_cycle = parts[0].peak_flops_per_cycle;
  plan.mapping_efficiency = std::min(parts[0].mapping_efficiency, parts[2].mapping_efficiency);
  plan.mapping = {{"kernel", plan.kernel},
                  {"qk_gemm", parts[0].mapping},
                  {"softmax", parts[1].mapping},
                  {"pv_gemm", parts[2].mapping}};
  return plan;
}

KernelPlan plan_attention(const SimdParams& params, const ir::AttentionAttrs& attention,
                          ir::DType dtype, const MemoryView& memory, int64_t launch_cycles) {
  std::optional<KernelPlan> best;
  int64_t best_cycles = std::numeric_limits<int64_t>::max();
  const FlashCandidates candidates = flash_candidates(params, attention);
  for (int64_t block_q : candidates.block_q) {
    for (int64_t block_kv : candidates.block_kv) {
      for (int64_t split : candidates.kv_split) {
        std::optional<KernelPlan> plan =
            plan_flash_tiling(params, attention, dtype, {block_q, block_kv, split},
                              memory.dram_latency_cycles);
        if (!plan) continue;
        plan->launch_cycles = launch_cycles;
        const int64_t cycles =
            estimate_cycles(*plan, memory.dram_bytes_per_cycle, memory.dram_latency_cycles);
        if (cycles < best_cycles) {
          best_cycles = cycles;
          best = std::move(plan);
        }
      }
    }
  }
  if (runs_only_fused(attention) && best) {
    // The stated library kernel is the fused one: no unfused alternative to weigh.
    best->mapping["fused_estimate_cycles"] = best_cycles;
    best->mapping["unfused_estimate_cycles"] = nullptr;
    return *best;
  }
  KernelPlan unfused = plan_unfused_attention(params, attention, dtype, memory, launch_cycles);
  unfused.launch_cycles = 0;  // its launches are steps
  const int64_t unfused_cycles =
      estimate_cycles(unfused, memory.dram_bytes_per_cycle, memory.dram_latency_cycles);
  const bool fused = best && best_cycles <= unfused_cycles;
  KernelPlan chosen = fused ? *best : unfused;
  chosen.mapping["fused_estimate_cycles"] =
      best ? nlohmann::ordered_json(best_cycles) : nlohmann::ordered_json(nullptr);
  chosen.mapping["unfused_estimate_cycles"] = unfused_cycles;
  return chosen;
}

}  // namespace polyarch::archs::simd
