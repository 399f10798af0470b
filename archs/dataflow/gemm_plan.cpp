// GEMM and convolution on the fabric: weight-stationary tiles of k_unroll x n_unroll MACs
// (each MAC holds one weight in a register) stream `lanes` rows of A per iteration; copies of
// the tile work on different weight tiles at once. Either operand can be the stationary one:
// C = A B holds B's tile and streams A's rows; swapped, C^T = B^T A^T holds A's tile and streams
// B's columns (a GEMM with fewer rows than columns then runs many iterations per weight load).
// The unroll and replication are chosen over power-of-two candidates (gemm_choices, the mapping
// space of dataflow_space.h): candidates are placed, routed and scheduled in the order of their
// analytical estimate (ResMII and an estimated depth), skipping any whose lower bound (ResMII,
// no depth) cannot beat the best placed so far, so the fastest of all is kept while few are
// placed. Rows of A run whole through each round of weight tiles, or in blocks that stay on chip
// (row_blocks below); a forced choice says which. The fabric's own choice is the tiling, rows
// and orientation whose estimate with the DRAM in front of it (and its configuration load) is
// smallest.
#include <algorithm>
#include <limits>
#include <optional>

#include "archs/dataflow/phase_plans.h"
#include "base/checked_math.h"

namespace polyarch::archs::dataflow {

namespace {


int64_t gemm_mul(int64_t a, int64_t b) { return checked_mul(a, b, "dataflow gemm"); }

struct Candidate {
  GemmChoice choice;
  GemmShape shape;  // oriented as the choice says
  GemmTile tile;
  int64_t replicas = 1;
  int64_t estimate = 0;
  int64_t lower_bound = 0;  // the placed cycles are at least this (II >= ResMII, depth >= 0)
};

struct TileCounts {
  int64_t tiles = 0;       // weight tiles over all repeats
  int64_t rounds = 0;      // tiles / replicas
  int64_t iterations = 0;  // per round: vectors of rows
  int64_t weight_load_cycles = 0;
};

TileCounts tile_counts(const DataflowParams& params, const GemmShape& shape, const GemmTile& tile,
                       int64_t replicas) {
  TileCounts counts;
  counts.tiles =
      gemm_mul(gemm_mul(ceil_div(shape.k, tile.k_unroll), ceil_div(shape.n, tile.n_unroll)), shape.repeats);
  counts.rounds = ceil_div(counts.tiles, replicas);
  counts.iterations = ceil_div(shape.rows, params.pe.lanes);
  const int64_t weight_bytes =
      gemm_mul(gemm_mul(replicas, gemm_mul(tile.k_unroll, tile.n_unroll)), ir::dtype_bytes(shape.dtype));
  counts.weight_load_cycles =
      ceil_div(weight_bytes, gemm_mul(params.memory.count, params.memory.bytes_per_cycle));
  return counts;
}

int64_t round_cycles(const TileCounts& counts, int64_t ii, int64_t depth) {
  return counts.weight_load_cycles + depth + ii * (counts.iterations - 1);
}

// Rows of A taken through every weight tile before the next rows start. When A and C do not stay
// in the scratchpads whole, blocks of rows can: a block's A rows and its C partial sums share
// half the memory PEs (the other half double-buffers the weight tiles and the next block), so A
// is read once, no partial sum spills, and only B is read again, once per block; each block
// pays the weight loads and the pipeline's fill again. A block is a whole number of lane
// vectors; when not even one vector's rows fit, or every row fits, the rows are not blocked.
struct RowBlocks {
  int64_t rows = 0;   // per full block
  int64_t count = 1;  // blocks, the last one holding the remaining rows
  bool blocked() const { return count > 1; }
};

RowBlocks row_blocks(const DataflowParams& params, const GemmShape& shape) {
  const double half = params.scratchpad_bytes() / 2.0;
  const double row_bytes =
      static_cast<double>(gemm_mul(shape.k + shape.n, ir::dtype_bytes(shape.dtype)));
  const int64_t lanes = params.pe.lanes;
  const auto fitting = static_cast<int64_t>(half / row_bytes) / lanes * lanes;
  if (fitting >= shape.rows || fitting < lanes) return {shape.rows, 1};
  return {fitting, ceil_div(shape.rows, fitting)};
}

bool same_tiling(const GemmChoice& a, const GemmChoice& b) {
  return a.k_unroll == b.k_unroll && a.n_unroll == b.n_unroll &&
         a.half_replicas == b.half_replicas && a.swapped == b.swapped;
}

// A placed tiling's steps and DRAM traffic, rows whole or blocked.
struct GemmTraffic {
  std::vector<PlanStep> steps;
  int64_t iterations = 0;  // per replica, all steps
  int64_t cycles = 0;      // the steps' cycles
  int64_t a_passes = 1;
  RowBlocks blocks;
};

GemmTraffic gemm_traffic(const DataflowParams& params, const GemmShape& shape,
                         const GemmTile& tile, const TileCounts& counts, const MappedLoop& loop,
                         bool blocked) {
  const int64_t elem = ir::dtype_bytes(shape.dtype);
  GemmTraffic traffic;
  traffic.blocks = blocked ? row_blocks(params, shape) : RowBlocks{shape.rows, 1};
  const RowBlocks& blocks = traffic.blocks;
  const int64_t c_bytes = gemm_mul(gemm_mul(shape.rows, shape.n), elem);
  const int64_t b_bytes = shape.stationary_bytes;
  int64_t read = 0;
  int64_t write = 0;
  // Each block runs every round of weight tiles; the last block has the remaining rows.
  std::vector<std::pair<TileCounts, int64_t>> block_runs;  // (counts, blocks like it)
  if (blocks.blocked()) {
    read = gemm_mul(shape.repeats, shape.a_bytes + gemm_mul(b_bytes, blocks.count));
    write = gemm_mul(shape.repeats, c_bytes);
    TileCounts full = counts;
    full.iterations = ceil_div(blocks.rows, params.pe.lanes);
    TileCounts last = counts;
    last.iterations = ceil_div(shape.rows - blocks.rows * (blocks.count - 1), params.pe.lanes);
    block_runs = {{full, blocks.count - 1}, {last, 1}};
  } else {
    // B once; A once when it stays in the scratchpad (a quarter of it: double-buffered, shared
    // with B), else once per round of output columns; partial sums spill when C does not stay
    // and K is split.
    const double quarter = params.scratchpad_bytes() / 4.0;
    const int64_t column_rounds = ceil_div(ceil_div(shape.n, tile.n_unroll), loop.replicas);
    traffic.a_passes = static_cast<double>(shape.a_bytes) <= quarter ? 1 : column_rounds;
    const int64_t k_tiles = ceil_div(shape.k, tile.k_unroll);
    const int64_t spill = static_cast<double>(c_bytes) <= quarter ? 0 : gemm_mul(c_bytes, k_tiles - 1);
    read = gemm_mul(shape.repeats, gemm_mul(shape.a_bytes, traffic.a_passes) + b_bytes + spill);
    write = gemm_mul(shape.repeats, c_bytes + spill);
    block_runs = {{counts, 1}};
  }
  const int64_t steps = gemm_mul(counts.rounds, blocks.count);
  for (const auto& [run, like] : block_runs) {
    const int64_t count = gemm_mul(counts.rounds, like);
    if (count == 0) continue;
    const int64_t cycles = round_cycles(run, loop.schedule.ii, loop.schedule.depth_cycles);
    traffic.steps.push_back({cycles, read / steps, write / steps, count});
    traffic.iterations += gemm_mul(count, run.iterations);
    traffic.cycles += gemm_mul(count, cycles);
  }
  // The last step on its own, carrying what the even split of the bytes leaves over.
  if (traffic.steps.back().count > 1) {
    --traffic.steps.back().count;
    traffic.steps.push_back({traffic.steps.back().cycles, read / steps, write / steps, 1});
  }
  traffic.steps.back().dram_read_bytes += read % steps;
  traffic.steps.back().dram_write_bytes += write % steps;
  return traffic;
}

// Every tiling the fabric holds in one orientation, appended to `found`.
void oriented_candidates(const DataflowParams& params, const GemmShape& shape,
                         std::optional<GemmChoice> only, std::vector<Candidate>& found) {
  const int64_t elem = ir::dtype_bytes(shape.dtype);
  const int64_t mac_latency = params.pe.has_mac(shape.dtype)
                                  ? params.pe.latency("mac")
                                  : params.pe.latency("mul") + params.pe.latency("add");
  for (int64_t ku = 1; ku <= std::min(shape.k, kMaxUnroll); ku *= 2) {
    for (int64_t nu = 1; nu <= std::min(shape.n, kMaxUnroll); nu *= 2) {
      if (only && (only->k_unroll != ku || only->n_unroll != nu)) continue;
      Candidate candidate;
      candidate.shape = shape;
      candidate.tile = {ku, nu, shape.k > ku || shape.bias, shape.dtype};
      const Dfg single = gemm_tile_dfg(params, candidate.tile);
      if (gemm_mul(ku, nu) > params.pe.count() * params.pe.registers) continue;
      const int64_t tiles = tile_counts(params, shape, candidate.tile, 1).tiles;
      const int64_t fill = std::min(replicas_to_fill(params, single), tiles);
      // Half the copies route with less congestion, which the ranking cannot see: try both.
      std::vector<int64_t> replica_choices = {fill};
      if (fill > 1) replica_choices.push_back(fill / 2);
      for (int64_t replicas : replica_choices) {
        candidate.choice = {ku, nu, replicas != fill, false, shape.swapped};
        candidate.replicas = replicas;
        const TileCounts counts = tile_counts(params, shape, candidate.tile, replicas);
        const int64_t ii = res_mii(params, single.replicated(replicas), elem);
        // Depth: the load, the MAC chain with one hop per link, the store.
        const int64_t depth = params.memory.access_cycles + ku * (mac_latency + 1) + 2;
        candidate.estimate = gemm_mul(counts.rounds, round_cycles(counts, ii, depth));
        candidate.lower_bound = gemm_mul(counts.rounds, round_cycles(counts, ii, 0));
        found.push_back(candidate);
      }
    }
  }
}

// Every weight tiling the fabric holds in the shape's orientation, by analytical estimate; with
// `only`, just that tiling's (building a replicated graph per candidate is most of a plan's cost
// when placements are cached).
std::vector<Candidate> candidates(const DataflowParams& params, const GemmShape& shape,
                                  std::optional<GemmChoice> only = std::nullopt) {
  std::vector<Candidate> found;
  if (!only || only->swapped == shape.swapped) oriented_candidates(params, shape, only, found);
  std::stable_sort(found.begin(), found.end(),
                   [](const Candidate& a, const Candidate& b) { return a.estimate < b.estimate; });
  return found;
}

struct PlacedTiling {
  Candidate candidate;
  TileCounts counts;
  std::shared_ptr<const MappedLoop> loop;
};

// A placed tiling's phase: its rows blocked as forced, or, the fabric's own choice, when the
// DRAM in front of it makes them faster.
LoopPhase tiling_phase(const DataflowParams& params, const PlacedTiling& placed,
                       const std::string& label, std::optional<GemmChoice> choice,
                       const sim::MemoryView& memory) {
  const GemmShape& shape = placed.candidate.shape;
  const GemmTile& tile = placed.candidate.tile;
  const MappedLoop& loop = *placed.loop;
  auto phase_of = [&](const GemmTraffic& traffic) {
    LoopPhase phase;
    phase.label = label;
    phase.loop = placed.loop;
    phase.iterations = traffic.iterations;
    phase.steps = traffic.steps;
    phase.compute_cycles = traffic.cycles;
    return phase;
  };
  GemmTraffic traffic =
      gemm_traffic(params, shape, tile, placed.counts, loop, choice && choice->row_blocks);
  if (!choice && row_blocks(params, shape).blocked()) {
    GemmTraffic blocked = gemm_traffic(params, shape, tile, placed.counts, loop, true);
    if (phase_estimate_cycles(params, phase_of(blocked), memory) <
        phase_estimate_cycles(params, phase_of(traffic), memory)) {
      traffic = std::move(blocked);
    }
  }
  LoopPhase phase = phase_of(traffic);
  describe_phase(params, phase, ir::dtype_bytes(shape.dtype));
  phase.mapping["orientation"] = shape.swapped ? "C^T = B^T A^T" : "C = A B";
  phase.mapping["k_unroll"] = tile.k_unroll;
  phase.mapping["n_unroll"] = tile.n_unroll;
  phase.mapping["weight_tiles"] = placed.counts.tiles;
  phase.mapping["tile_rounds"] = placed.counts.rounds;
  phase.mapping["iterations_per_round"] = placed.counts.iterations;
  phase.mapping["weight_load_cycles"] = placed.counts.weight_load_cycles;
  phase.mapping["a_passes"] = traffic.a_passes;
  phase.mapping["row_blocks"] = traffic.blocks.count;
  phase.mapping["rows_per_block"] = traffic.blocks.rows;
  return phase;
}

// The tiling of `found` (or the forced choice) whose phase estimates fastest with `memory` (rows
// whole or blocked, whichever is faster; its configuration load included), with that estimate.
// Candidates are placed in the order of their analytical estimate while their lower bound (a
// phase takes at least its fabric cycles) is under the best so far and under `bound`, a cycle
// count the caller already has: a tiling that cannot beat it need not be found.
std::optional<std::pair<LoopPhase, int64_t>> fastest_tiling(
    const DataflowParams& params, MappingCache& cache, const std::vector<Candidate>& found,
    std::optional<GemmChoice> choice, const std::string& label, const sim::MemoryView& memory,
    int64_t bound) {
  std::optional<std::pair<LoopPhase, int64_t>> best;
  for (const Candidate& candidate : found) {
    const int64_t beat = best ? best->second : bound;
    if (choice ? !same_tiling(candidate.choice, *choice) : candidate.lower_bound >= beat) continue;
    auto mapped = cache.map(params, gemm_tile_dfg(params, candidate.tile), candidate.replicas,
                            ir::dtype_bytes(candidate.shape.dtype));
    const PlacedTiling placed{
        candidate, tile_counts(params, candidate.shape, candidate.tile, candidate.replicas),
        mapped};
    std::vector<LoopPhase> phases = {tiling_phase(params, placed, label, choice, memory)};
    const int64_t estimate = phases_estimate_cycles(params, phases, memory);
    if (!choice && estimate >= beat) continue;
    best = {std::move(phases.front()), estimate};
  }
  return best;
}

}  // namespace

GemmShape gemm_shape(const ir::Op& op, ir::DType dtype) {
  const ir::GemmView view = ir::gemm_view(op);
  GemmShape shape;
  shape.dtype = dtype;
  shape.n = view.n;
  shape.k = view.k;
  shape.rows = view.m;
  shape.repeats = view.repeats;
  shape.a_bytes = gemm_mul(view.ifmap_distinct_elements, ir::dtype_bytes(dtype));
  shape.stationary_bytes = gemm_mul(gemm_mul(view.k, view.n), ir::dtype_bytes(dtype));
  if (const auto* gemm = std::get_if<ir::GemmAttrs>(&op.attrs)) {
    shape.bias = gemm->bias;
    if (gemm->b_shared) {  // one weight for the batch: its rows are more rows of A
      shape.rows = gemm_mul(view.m, gemm->batch);
      shape.a_bytes = gemm_mul(shape.a_bytes, gemm->batch);
      shape.repeats = 1;
    }
  } else if (const auto* conv = std::get_if<ir::Conv2dAttrs>(&op.attrs)) {
    shape.bias = conv->bias;
  }
  return shape;
}

GemmShape transposed(const GemmShape& shape) {
  GemmShape swapped = shape;
  swapped.rows = shape.n;
  swapped.n = shape.rows;
  swapped.a_bytes = shape.stationary_bytes;
  swapped.stationary_bytes = shape.a_bytes;
  swapped.swapped = !shape.swapped;
  return swapped;
}

std::vector<GemmChoice> gemm_choices(const DataflowParams& params, const GemmShape& shape) {
  std::vector<GemmChoice> choices;
  for (const GemmShape& oriented : {shape, transposed(shape)}) {
    const bool blockable = row_blocks(params, oriented).blocked();
    for (const Candidate& candidate : candidates(params, oriented)) {
      choices.push_back(candidate.choice);
      if (!blockable) continue;
      GemmChoice blocked = candidate.choice;
      blocked.row_blocks = true;
      choices.push_back(blocked);
    }
  }
  if (dot_applies(params, shape)) {
    for (const GemmChoice& dot : dot_choices(params, shape)) choices.push_back(dot);
  }
  return choices;
}

std::vector<LoopPhase> plan_gemm_phases(const DataflowParams& params, MappingCache& cache,
                                        const GemmShape& shape, const std::string& label,
                                        std::optional<GemmChoice> choice,
                                        const sim::MemoryView& memory) {
  if (choice && choice->dot) return plan_dot_phases(params, cache, shape, label, choice, memory);
  // The tiling of either orientation whose estimate with the DRAM is smallest.
  std::vector<LoopPhase> best;
  int64_t best_estimate = std::numeric_limits<int64_t>::max();
  for (const GemmShape& oriented : {shape, transposed(shape)}) {
    auto found = fastest_tiling(params, cache, candidates(params, oriented, choice), choice, label,
                                memory, best_estimate);
    if (!found) continue;
    best = {std::move(found->first)};
    best_estimate = found->second;
  }
  if (best.empty()) throw_runtime({}, "dataflow gemm: no tiling matches the forced choice");
  if (!choice && dot_applies(params, shape)) {
    std::vector<LoopPhase> dot =
        plan_dot_phases(params, cache, shape, label, std::nullopt, memory);
    if (phases_estimate_cycles(params, dot, memory) < best_estimate) best = std::move(dot);
  }
  return best;
}

}  // namespace polyarch::archs::dataflow
