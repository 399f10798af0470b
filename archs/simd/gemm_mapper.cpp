#include "archs/simd/gemm_mapper.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <string>

#include "archs/simd/conv_k_steps.h"
#include "archs/simd/step_cost.h"
#include "base/checked_math.h"
#include "sim/pipeline/tile_slots.h"

namespace polyarch::archs::simd {

namespace {

// Staging buffers beyond this hide no more latency.
constexpr int64_t kMaxStages = 8;
// Accumulators may take half the register file; the rest holds operand fragments, addresses
// and loop state (CUTLASS's Hopper kernels keep a 128 x 256 fp32 accumulator tile in half of an
// SM's 256 KiB).
constexpr int64_t kAccumulatorRegisterShare = 2;
std::map<std::string, GemmTiling>& tiling_cache() {
  static std::map<std::string, GemmTiling> cache;
  return cache;
}

std::mutex& tiling_cache_mutex() {
  static std::mutex mutex;
  return mutex;
}

int64_t share(int64_t total, int64_t part, int64_t whole) {
  return static_cast<int64_t>(static_cast<double>(total) * static_cast<double>(part) /
                              static_cast<double>(whole));
}

struct TileGeometry {
  int64_t tiles_m = 0;
  int64_t tiles_n = 0;
  int64_t k_per_split = 0;  // of the problem's K, zero fill not counted
  int64_t iterations = 0;   // BK slices per tile
  int64_t issued_k = 0;     // K the MMAs run through, all splits: iterations' slices, fill included
  int64_t tiles = 0;        // all tiles: tiles_m * tiles_n * batch * split_k
  int64_t stages = 0;       // staging buffers that fit the scratchpad
  int64_t operand_bytes = 0;  // one iteration's A and B slices as staged, zero fill included
  int64_t fetched_bytes = 0;  // what of them comes through L2: the fill is written, not read
};

// K slices per tile. A GEMM (k_taps = 1) slices K / split_k into BK. A convolution stepped by
// taps slices each tap's channels into BK, the last slice of a tap zero-filled from the channel
// count up (its fill is written to the staging buffer, not fetched), and split-K shares out the
// slices. False when split-K leaves a split without a slice.
bool slice_k(const GemmProblem& problem, const GemmTiling& tiling, TileGeometry& geometry) {
  geometry.k_per_split = ceil_div(problem.k, tiling.split_k);
  geometry.fetched_bytes = geometry.operand_bytes;
  const int64_t taps = tiling.matrix_engine ? problem.k_taps : problem.lane_k_taps;
  if (taps <= 1) {
    if (tiling.split_k > 1 && tiling.split_k * tiling.bk > problem.k) return false;
    geometry.iterations = ceil_div(geometry.k_per_split, tiling.bk);
    geometry.issued_k = problem.k;
    return true;
  }
  const int64_t channels = problem.k / taps;
  const int64_t channel_slices = ceil_div(channels, tiling.bk);
  const int64_t slices = checked_mul(taps, channel_slices, "K slices");
  geometry.iterations = ceil_div(slices, tiling.split_k);
  // Splits take `iterations` slices each, the last the rest: it must have one.
  if (checked_mul(geometry.iterations, tiling.split_k - 1, "K slices") >= slices) return false;
  geometry.issued_k = checked_mul(slices, tiling.bk, "K");
  geometry.fetched_bytes = ceil_div(checked_mul(geometry.operand_bytes, channels, "bytes"),
                                    checked_mul(channel_slices, tiling.bk, "K"));
  return true;
}

// Lane instructions that widen `weights` stored weights of the problem's B.
int64_t widen_ops(const GemmProblem& problem, int64_t weights) {
  return ceil_div(checked_mul(weights, problem.widen_ops_per_pair, "lane ops"), 2);
}

// DRAM bytes a wave of `wave_tiles` concurrent tiles reads. When both operands fit in L2 each
// byte comes from DRAM once (spread over the waves); otherwise a wave reads the A row panels and
// B column panels it covers, the wave laid out as a near-square block of tiles.
int64_t wave_read_bytes(const SimdParams& params, const GemmProblem& problem,
                        const GemmTiling& tiling, const TileGeometry& geometry,
                        int64_t wave_tiles) {
  const int64_t compulsory = checked_add(problem.a_bytes, problem.b_bytes, "bytes");
  const int64_t compulsory_share = share(compulsory, wave_tiles, geometry.tiles);
  const double l2_bytes = params.l2.capacity_mib * 1024.0 * 1024.0;
  if (static_cast<double>(compulsory) <= l2_bytes) return compulsory_share;
  const int64_t rows = std::min(geometry.tiles_m,
                                static_cast<int64_t>(std::ceil(std::sqrt(wave_tiles))));
  const int64_t cols = std::min(geometry.tiles_n, ceil_div(wave_tiles, rows));
  const int64_t elem = ir::dtype_bytes(problem.dtype);
  // Panels of A are im2col rows for a convolution: scale by distinct / im2col bytes.
  const double a_im2col = static_cast<double>(problem.m) * static_cast<double>(problem.k) *
                          static_cast<double>(elem) * static_cast<double>(problem.batch);
  const double a_scale = std::min(1.0, static_cast<double>(problem.a_bytes) / a_im2col);
  const double panel_reads =
      (static_cast<double>(rows * tiling.bm) * a_scale +
       static_cast<double>(cols * tiling.bn) * problem.b_stored_fraction) *
      static_cast<double>(geometry.k_per_split) * static_cast<double>(elem);
  return std::max(compulsory_share, static_cast<int64_t>(panel_reads));
}

// One wave of `wave_tiles` tiles: its iterations as steps, the epilogue on the last.
std::vector<StepRun> wave_steps(const SimdParams& params, const GemmProblem& problem,
                                const GemmTiling& tiling, const TileGeometry& geometry,
                                int64_t wave_tiles, int64_t macs_per_cycle) {
  const int64_t elem = ir::dtype_bytes(problem.dtype);
  CoreWork work;
  const int64_t padded_bm =
      tiling.matrix_engine ? round_up(tiling.bm, params.matrix_engine.min_tile_m) : tiling.bm;
  if (tiling.matrix_engine) {
    work.matrix_macs = padded_bm * tiling.bn * tiling.bk;
    work.matrix_macs_per_cycle = macs_per_cycle;
    // Quantised weights are widened on the lanes as they are staged, beside the engine.
    work.vector_ops = widen_ops(problem, tiling.bn * tiling.bk);
    work.vector_ops_per_cycle = params.core_vector_elements_per_cycle(problem.dtype);
  } else {
    work.vector_ops = tiling.bm * tiling.bn * tiling.bk + widen_ops(problem, tiling.bn * tiling.bk);
    work.vector_ops_per_cycle = macs_per_cycle;
  }
  work.scratchpad_bytes = geometry.operand_bytes;
  work.l2_bytes = geometry.fetched_bytes;
  // Staging buffers in flight hide the L2 latency of the slices behind them.
  work.latency_floor_cycles = ceil_div(params.l2.hit_latency_cycles, geometry.stages - 1);
  work.active_cores = wave_tiles;
  const KernelStep iteration = step_cost(params, work);

  // Epilogue: accumulators converted on the lanes and stored through the core's port, after
  // the first slice's fill latency (a tile's pipeline starts empty).
  const int64_t out_elem = tiling.split_k > 1 ? kAccumulatorBytes : elem;
  const int64_t tile_outputs = tiling.bm * tiling.bn;
  const int64_t epilogue_cycles =
      ceil_div(tile_outputs, params.core_vector_elements_per_cycle(ir::DType::kFp32)) +
      ceil_div(tile_outputs * out_elem, params.core_bytes_per_cycle) +
      params.l2.hit_latency_cycles;

  const int64_t reads = wave_read_bytes(params, problem, tiling, geometry, wave_tiles);
  const int64_t c_bytes = tiling.split_k > 1 ? 0 : share(problem.c_bytes, wave_tiles, geometry.tiles);
  const int64_t reads_per_step = reads / geometry.iterations;
  const int64_t first_extra = reads - reads_per_step * geometry.iterations;

  std::vector<StepRun> runs;
  KernelStep first = iteration;
  first.dram_read_bytes = reads_per_step + first_extra;
  KernelStep middle = iteration;
  middle.dram_read_bytes = reads_per_step;
  KernelStep last = middle;
  last.cycles += epilogue_cycles;
  last.dram_write_bytes = c_bytes;
  if (geometry.iterations == 1) {
    last.dram_read_bytes = first.dram_read_bytes;
    runs.push_back({last, 1});
  } else {
    runs.push_back({first, 1});
    runs.push_back({middle, geometry.iterations - 2});
    runs.push_back({last, 1});
  }
  return runs;
}

// Split-K partial sums are reduced by the vector lanes of all cores; they stay in L2 when they
// fit, else they go through DRAM.
KernelStep split_reduction_step(const SimdParams& params, const GemmProblem& problem,
                                const GemmTiling& tiling) {
  const int64_t outputs = checked_mul(checked_mul(problem.m, problem.n, "outputs"), problem.batch,
                                      "outputs");
  const int64_t partial_bytes =
      checked_mul(checked_mul(outputs, tiling.split_k, "bytes"), kAccumulatorBytes, "bytes");
  CoreWork work;
  work.vector_ops = ceil_div(outputs * tiling.split_k, params.count);
  work.vector_ops_per_cycle = params.core_vector_elements_per_cycle(ir::DType::kFp32);
  work.l2_bytes = ceil_div(partial_bytes, params.count);
  work.active_cores = params.count;
  KernelStep step = step_cost(params, work);
  const bool partials_fit = static_cast<double>(partial_bytes) <=
                            params.l2.capacity_mib * 1024.0 * 1024.0;
  step.dram_read_bytes = partials_fit ? 0 : partial_bytes;
  step.dram_write_bytes = problem.c_bytes;
  return step;
}

// What the kernel does, for the energy model: its MACs on the engine (or the lanes), those of a
// tap's zero-filled channels included, every tile's accumulators converted on the lanes (fp32)
// in the epilogue, the split-K reduction's fp32 adds, each slice fetched through L2 and staged
// (fill included) through the scratchpad.
void record_activity(const GemmProblem& problem, const GemmTiling& tiling,
                     const TileGeometry& geometry, KernelPlan& plan) {
  const int64_t issued_macs =
      checked_mul(checked_mul(checked_mul(problem.m, problem.n, "MACs"), geometry.issued_k, "MACs"),
                  problem.batch, "MACs");
  if (tiling.matrix_engine) {
    plan.matrix_macs[problem.dtype] = issued_macs;
  } else {
    plan.vector_ops[problem.dtype] = issued_macs;
  }
  // Every tile widens its B slices, whichever engine multiplies them.
  plan.vector_ops[problem.dtype] += widen_ops(
      problem, checked_mul(geometry.tiles * geometry.iterations, tiling.bn * tiling.bk, "weights"));
  int64_t fp32_ops = checked_mul(geometry.tiles, tiling.bm * tiling.bn, "lane ops");
  if (tiling.split_k > 1) {
    const int64_t outputs =
        checked_mul(checked_mul(problem.m, problem.n, "outputs"), problem.batch, "outputs");
    fp32_ops = checked_add(fp32_ops, checked_mul(outputs, tiling.split_k, "lane ops"), "lane ops");
  }
  plan.vector_ops[ir::DType::kFp32] += fp32_ops;
  const int64_t slices = checked_mul(geometry.tiles, geometry.iterations, "slices");
  plan.l2_bytes = checked_mul(slices, geometry.fetched_bytes, "L2 bytes");
  plan.scratchpad_bytes = checked_mul(slices, geometry.operand_bytes, "scratchpad bytes");
}

}  // namespace

std::optional<KernelPlan> plan_gemm_tiling(const SimdParams& params, const GemmProblem& problem,
                                           const GemmTiling& tiling, bool describe) {
  const int64_t elem = ir::dtype_bytes(problem.dtype);
  const bool sync_mma = tiling.matrix_engine && problem.sync_engine;
  const int64_t engine_rate = sync_mma ? params.core_sync_matrix_macs_per_cycle(problem.dtype)
                                       : params.core_matrix_macs_per_cycle(problem.dtype);
  const int64_t macs_per_cycle =
      tiling.matrix_engine ? checked_mul(engine_rate, problem.engine_speedup, "MACs per cycle")
                           : params.core_vector_elements_per_cycle(problem.dtype);
  if (macs_per_cycle <= 0) return std::nullopt;
  if (sync_mma && tiling.bk * elem < kSyncMmaKStepsPerSlice * kSyncMmaKBytes) return std::nullopt;
  if (tiling.bm * tiling.bn * kAccumulatorBytes * kAccumulatorRegisterShare >
      params.vector.registers_kib * 1024) {
    return std::nullopt;
  }
  TileGeometry geometry;
  geometry.operand_bytes =
      tiling.bm * tiling.bk * elem +
      static_cast<int64_t>(std::ceil(static_cast<double>(tiling.bn * tiling.bk * elem) *
                                     problem.b_stored_fraction));
  geometry.stages = std::min(kMaxStages, params.scratchpad.kib * 1024 / geometry.operand_bytes);
  if (geometry.stages < 2) return std::nullopt;
  if (!slice_k(problem, tiling, geometry)) return std::nullopt;
  geometry.tiles_m = ceil_div(problem.m, tiling.bm);
  geometry.tiles_n = ceil_div(problem.n, tiling.bn);
  geometry.tiles = checked_mul(
      checked_mul(checked_mul(geometry.tiles_m, geometry.tiles_n, "tiles"), problem.batch, "tiles"),
      tiling.split_k, "tiles");

  KernelPlan plan;
  plan.kernel = "tiled_gemm";
  plan.staging_slots = std::min<int64_t>(geometry.stages, sim::kMaxTileSlots);
  const int64_t full_waves = geometry.tiles / params.count;
  const int64_t last_wave_tiles = geometry.tiles % params.count;
  if (full_waves > 0) {
    plan.add_block(wave_steps(params, problem, tiling, geometry, params.count, macs_per_cycle),
                   full_waves);
  }
  if (last_wave_tiles > 0) {
    plan.add_block(
        wave_steps(params, problem, tiling, geometry, last_wave_tiles, macs_per_cycle), 1);
  }
  if (tiling.split_k > 1) plan.add_block({{split_reduction_step(params, problem, tiling), 1}}, 1);

  plan.macs = checked_mul(checked_mul(checked_mul(problem.m, problem.n, "MACs"), problem.k, "MACs"),
                          problem.batch, "MACs");
  plan.flops = checked_mul(plan.macs, 2, "FLOPs");
  record_activity(problem, tiling, geometry, plan);
  plan.peak_flops_per_cycle = 2.0 * static_cast<double>(macs_per_cycle) *
                              static_cast<double>(params.count);
  const double waves = static_cast<double>(ceil_div(geometry.tiles, params.count));
  const double issued = waves * static_cast<double>(params.count) *
                        static_cast<double>(geometry.iterations) *
                        static_cast<double>(tiling.bm * tiling.bn * tiling.bk);
  plan.mapping_efficiency = static_cast<double>(plan.macs) / issued;
  if (!describe) return plan;
  plan.mapping = {{"kernel", plan.kernel},
                  {"engine", tiling.matrix_engine ? "matrix" : "vector"},
                  {"tile_m", tiling.bm},
                  {"tile_n", tiling.bn},
                  {"tile_k", tiling.bk},
                  {"split_k", tiling.split_k},
                  {"stages", geometry.stages},
                  {"tiles", geometry.tiles},
                  {"waves", static_cast<int64_t>(waves)},
                  {"wave_efficiency",
                   static_cast<double>(geometry.tiles) / (waves * static_cast<double>(params.count))}};
  const int64_t taps = tiling.matrix_engine ? problem.k_taps : problem.lane_k_taps;
  if (taps > 1) plan.mapping["k_taps"] = taps;
  if (sync_mma) plan.mapping["mma"] = "sync";
  return plan;
}

namespace {

// Tilings already searched, by everything the search depends on: a model repeats its layer
// shapes, and the list scheduler asks every unit about every op before the simulation does.
std::string tiling_key(const SimdParams& params, const GemmProblem& problem,
                       const MemoryView& memory) {
  std::string key = params.name;
  for (int64_t value :
       {params.count, params.vector.lanes, params.vector.registers_kib,
        static_cast<int64_t>(params.vector.packed_narrow_types), params.matrix_engine.per_core,
        params.matrix_engine.min_tile_m, params.scratchpad.kib, params.scratchpad.bytes_per_cycle,
        params.l2.bytes_per_cycle, params.l2.hit_latency_cycles, params.core_bytes_per_cycle,
        problem.m, problem.n, problem.k, problem.batch, static_cast<int64_t>(problem.dtype),
        problem.a_bytes, problem.b_bytes, problem.c_bytes, memory.dram_latency_cycles,
        problem.engine_speedup, problem.widen_ops_per_pair, problem.k_taps, problem.lane_k_taps,
        static_cast<int64_t>(problem.sync_engine)}) {
    key += ',' + std::to_string(value);
  }
  key += ',' + std::to_string(problem.b_stored_fraction);
  for (const auto& [dtype, macs] : params.matrix_engine.macs_per_cycle) {
    key += ',' + std::to_string(static_cast<int>(dtype)) + ':' + std::to_string(macs);
  }
  for (const auto& [dtype, macs] : params.matrix_engine.sync_macs_per_cycle) {
    key += ",sync" + std::to_string(static_cast<int>(dtype)) + ':' + std::to_string(macs);
  }
  key += ',' + std::to_string(params.l2.capacity_mib) + ',' +
         std::to_string(memory.dram_bytes_per_cycle);
  return key;
}

std::optional<GemmTiling> cached_tiling(const std::string& key) {
  std::lock_guard<std::mutex> lock(tiling_cache_mutex());
  auto found = tiling_cache().find(key);
  if (found == tiling_cache().end()) return std::nullopt;
  return found->second;
}

}  // namespace

KernelPlan plan_gemm(const SimdParams& params, const GemmProblem& problem,
                     const MemoryView& memory) {
  const std::string key = tiling_key(params, problem, memory);
  if (const std::optional<GemmTiling> known = cached_tiling(key)) {
    return *plan_gemm_tiling(params, problem, *known);
  }
  const int64_t elem = ir::dtype_bytes(problem.dtype);
  std::optional<KernelPlan> best;
  int64_t best_cycles = std::numeric_limits<int64_t>::max();
  GemmTiling best_tiling;
  const bool engine_available = params.core_matrix_macs_per_cycle(problem.dtype) > 0;
  for (bool engine : {true, false}) {
    if (engine && !engine_available) continue;
    // The lanes take any tile height, so a GEMV (M = 1) pads nothing; an engine pads to its
    // instruction's M.
    for (int64_t bm : {1, 4, 16, 32, 64, 128, 256}) {
      if (engine && bm < params.matrix_engine.min_tile_m) continue;
      for (int64_t bn : {16, 32, 64, 128, 256}) {
        // Slices of 64 and 128 bytes along K: whole memory transactions per row.
        for (int64_t bk_bytes : {32, 64, 128}) {
          const int64_t bk = std::max<int64_t>(1, bk_bytes / elem);
          for (int64_t split : {1, 2, 3, 4, 6, 8, 12, 16, 32}) {
            const GemmTiling tiling{bm, bn, bk, split, engine};
            std::optional<KernelPlan> plan = plan_gemm_tiling(params, problem, tiling, false);
            if (!plan) continue;
            const int64_t cycles =
                estimate_cycles(*plan, memory.dram_bytes_per_cycle, memory.dram_latency_cycles);
            if (cycles < best_cycles) {
              best_cycles = cycles;
              best = std::move(plan);
              best_tiling = tiling;
            }
          }
        }
      }
    }
  }
  if (!best) {
    throw_runtime({}, "simd unit '" + params.name + "' has no feasible GEMM tiling (" +
                          std::to_string(problem.m) + "x" + std::to_string(problem.n) + "x" +
                          std::to_string(problem.k) + "): its scratchpad or registers are too small");
  }
  {
    std::lock_guard<std::mutex> lock(tiling_cache_mutex());
    tiling_cache().emplace(key, best_tiling);
  }
  return *plan_gemm_tiling(params, problem, best_tiling);
}

}  // namespace polyarch::archs::simd
