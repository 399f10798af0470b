// GEMM and convolution on the fabric: weight-stationary tiles of k_unroll x n_unroll MACs
// (each MAC holds one weight in a register) stream `lanes` rows of A per iteration; copies of
// the tile work on different weight tiles at once. The unroll and replication are chosen over
// power-of-two candidates (gemm_choices, the mapping space of dataflow_space.h): candidates are
// placed, routed and scheduled in the order of their analytical estimate (ResMII and an
// estimated depth), skipping any whose lower bound (ResMII, no depth) cannot beat the fastest
// placed so far, so the fastest placed candidate of all is kept while few are placed.
#include <algorithm>
#include <limits>
#include <optional>

#include "archs/dataflow/phase_plans.h"
#include "base/checked_math.h"

namespace polyarch::archs::dataflow {

namespace {

constexpr int64_t kMaxUnroll = 64;  // per dimension: larger tiles do not fit known fabrics

int64_t mul(int64_t a, int64_t b) { return checked_mul(a, b, "dataflow gemm"); }

struct Candidate {
  GemmChoice choice;
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
      mul(mul(ceil_div(shape.k, tile.k_unroll), ceil_div(shape.n, tile.n_unroll)), shape.repeats);
  counts.rounds = ceil_div(counts.tiles, replicas);
  counts.iterations = ceil_div(shape.rows, params.pe.lanes);
  const int64_t weight_bytes =
      mul(mul(replicas, mul(tile.k_unroll, tile.n_unroll)), ir::dtype_bytes(shape.dtype));
  counts.weight_load_cycles =
      ceil_div(weight_bytes, mul(params.memory.count, params.memory.bytes_per_cycle));
  return counts;
}

int64_t round_cycles(const TileCounts& counts, int64_t ii, int64_t depth) {
  return counts.weight_load_cycles + depth + ii * (counts.iterations - 1);
}

// Every tiling the fabric holds, by analytical estimate; with `only`, just that tiling's
// (building a replicated graph per candidate is most of a plan's cost when placements are cached).
std::vector<Candidate> candidates(const DataflowParams& params, const GemmShape& shape,
                                  std::optional<GemmChoice> only = std::nullopt) {
  std::vector<Candidate> found;
  const int64_t elem = ir::dtype_bytes(shape.dtype);
  const int64_t mac_latency = params.pe.has_mac(shape.dtype)
                                  ? params.pe.latency("mac")
                                  : params.pe.latency("mul") + params.pe.latency("add");
  for (int64_t ku = 1; ku <= std::min(shape.k, kMaxUnroll); ku *= 2) {
    for (int64_t nu = 1; nu <= std::min(shape.n, kMaxUnroll); nu *= 2) {
      if (only && (only->k_unroll != ku || only->n_unroll != nu)) continue;
      Candidate candidate;
      candidate.tile = {ku, nu, shape.k > ku || shape.bias, shape.dtype};
      const Dfg single = gemm_tile_dfg(params, candidate.tile);
      if (mul(ku, nu) > params.pe.count() * params.pe.registers) continue;
      const int64_t tiles = tile_counts(params, shape, candidate.tile, 1).tiles;
      const int64_t fill = std::min(replicas_to_fill(params, single), tiles);
      // Half the copies route with less congestion, which the ranking cannot see: try both.
      std::vector<int64_t> replica_choices = {fill};
      if (fill > 1) replica_choices.push_back(fill / 2);
      for (int64_t replicas : replica_choices) {
        candidate.choice = {ku, nu, replicas != fill};
        candidate.replicas = replicas;
        const TileCounts counts = tile_counts(params, shape, candidate.tile, replicas);
        const int64_t ii = res_mii(params, single.replicated(replicas), elem);
        // Depth: the load, the MAC chain with one hop per link, the store.
        const int64_t depth = params.memory.access_cycles + ku * (mac_latency + 1) + 2;
        candidate.estimate = mul(counts.rounds, round_cycles(counts, ii, depth));
        candidate.lower_bound = mul(counts.rounds, round_cycles(counts, ii, 0));
        found.push_back(candidate);
      }
    }
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const Candidate& a, const Candidate& b) { return a.estimate < b.estimate; });
  return found;
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
  shape.a_bytes = mul(view.ifmap_distinct_elements, ir::dtype_bytes(dtype));
  if (const auto* gemm = std::get_if<ir::GemmAttrs>(&op.attrs)) {
    shape.bias = gemm->bias;
    if (gemm->b_shared) {  // one weight for the batch: its rows are more rows of A
      shape.rows = mul(view.m, gemm->batch);
      shape.a_bytes = mul(shape.a_bytes, gemm->batch);
      shape.repeats = 1;
    }
  } else if (const auto* conv = std::get_if<ir::Conv2dAttrs>(&op.attrs)) {
    shape.bias = conv->bias;
  }
  return shape;
}

std::vector<GemmChoice> gemm_choices(const DataflowParams& params, const GemmShape& shape) {
  std::vector<GemmChoice> choices;
  for (const Candidate& candidate : candidates(params, shape)) choices.push_back(candidate.choice);
  return choices;
}

LoopPhase plan_gemm_phase(const DataflowParams& params, MappingCache& cache, const GemmShape& shape,
                          const std::string& label, std::optional<GemmChoice> choice) {
  const int64_t elem = ir::dtype_bytes(shape.dtype);
  LoopPhase best;
  int64_t best_cycles = std::numeric_limits<int64_t>::max();
  TileCounts best_counts;
  GemmTile best_tile;
  for (const Candidate& candidate : candidates(params, shape, choice)) {
    if (choice ? !(candidate.choice == *choice) : candidate.lower_bound >= best_cycles) continue;
    auto loop = cache.map(params, gemm_tile_dfg(params, candidate.tile), candidate.replicas, elem);
    const TileCounts counts = tile_counts(params, shape, candidate.tile, candidate.replicas);
    const int64_t cycles =
        mul(counts.rounds, round_cycles(counts, loop->schedule.ii, loop->schedule.depth_cycles));
    if (cycles >= best_cycles) continue;
    best_cycles = cycles;
    best_counts = counts;
    best_tile = candidate.tile;
    best.loop = loop;
  }
  if (!best.loop) throw_runtime({}, "dataflow gemm: no tiling matches the forced choice");
  best.label = label;
  best.iterations = mul(best_counts.rounds, best_counts.iterations);
  // DRAM: B once; A once when it stays in the scratchpad (a quarter of it: double-buffered,
  // shared with B), else once per round of output columns; partial sums spill when C does
  // not stay and K is split.
  const double quarter = params.scratchpad_bytes() / 4.0;
  const int64_t column_rounds =
      ceil_div(ceil_div(shape.n, best_tile.n_unroll), best.loop->replicas);
  const int64_t a_passes = static_cast<double>(shape.a_bytes) <= quarter ? 1 : column_rounds;
  const int64_t c_bytes = mul(mul(shape.rows, shape.n), elem);
  const int64_t k_tiles = ceil_div(shape.k, best_tile.k_unroll);
  const int64_t spill = static_cast<double>(c_bytes) <= quarter ? 0 : mul(c_bytes, k_tiles - 1);
  const int64_t read =
      mul(shape.repeats, mul(shape.a_bytes, a_passes) + mul(mul(shape.k, shape.n), elem) + spill);
  const int64_t write = mul(shape.repeats, c_bytes + spill);
  const int64_t cycles =
      round_cycles(best_counts, best.loop->schedule.ii, best.loop->schedule.depth_cycles);
  const int64_t rounds = best_counts.rounds;
  best.steps.push_back({cycles, read / rounds, write / rounds, rounds - 1});
  best.steps.push_back({cycles, read / rounds + read % rounds, write / rounds + write % rounds, 1});
  if (rounds == 1) best.steps.erase(best.steps.begin());
  best.compute_cycles = best_cycles;
  describe_phase(params, best, elem);
  best.mapping["k_unroll"] = best_tile.k_unroll;
  best.mapping["n_unroll"] = best_tile.n_unroll;
  best.mapping["weight_tiles"] = best_counts.tiles;
  best.mapping["tile_rounds"] = rounds;
  best.mapping["iterations_per_round"] = best_counts.iterations;
  best.mapping["weight_load_cycles"] = best_counts.weight_load_cycles;
  best.mapping["a_passes"] = a_passes;
  return best;
}

}  // namespace polyarch::archs::dataflow
