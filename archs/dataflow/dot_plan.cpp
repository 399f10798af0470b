// Dot products on the fabric, for a GEMM whose rows or columns cannot fill a lane vector (a dot
// product, a GEMV): its weight tiles (gemm_plan.cpp) would run a few iterations per weight load,
// or one (Plasticine's inner product, 1 x 1 x 768 M: 96 M tiles of one iteration, one lane of
// 16 busy). Here the lanes run along K instead (dot_dfg): an iteration loads a lanes-wide chunk
// of K of one row of A and of n_unroll columns of B, and n_unroll accumulators add the products
// lane by lane. Copies of the graph share the work: each output tile (one row of A against
// n_unroll columns of B) goes to one copy, or, with fewer output tiles than copies, its K range
// is split into k_splits contiguous chunks on as many copies. The loop writes nothing per
// iteration: each copy's accumulators (interleave partial vectors of lanes values each) leave
// once per output tile, and a second loop, the row kernels' reduce (row_kernel_dfg), sums each
// output's partials, reading them where the first loop left them and writing C. Swapped
// (transposed shape), the roles of A and B trade: a GEMV streams its vector against n_unroll
// rows of the matrix per iteration, sharing the vector's load among them.
#include <algorithm>
#include <limits>

#include "archs/dataflow/phase_plans.h"
#include "base/checked_math.h"

namespace polyarch::archs::dataflow {

namespace {

int64_t dot_mul(int64_t a, int64_t b) { return checked_mul(a, b, "dataflow dot"); }

// The accumulator's latency: that many partial sums per lane interleave (RecMII 1).
int64_t accumulator_interleave(const DataflowParams& params, ir::DType dtype) {
  return std::max<int64_t>(
      1, params.pe.has_mac(dtype) ? params.pe.latency("mac") : params.pe.latency("add"));
}

struct DotCounts {
  int64_t output_tiles = 0;  // rows x column tiles x repeats
  int64_t k_vectors = 0;     // lanes-wide chunks of K per output
  int64_t k_splits = 1;      // copies sharing one output tile's K range
  int64_t iterations = 0;    // per copy
  int64_t partials = 0;      // partial vectors per output: k_splits x the accumulator's interleave
};

DotCounts dot_counts(const DataflowParams& params, const GemmShape& shape, int64_t n_unroll,
                     int64_t interleave, int64_t replicas) {
  DotCounts counts;
  counts.output_tiles =
      dot_mul(dot_mul(shape.rows, ceil_div(shape.n, n_unroll)), shape.repeats);
  counts.k_vectors = ceil_div(shape.k, params.pe.lanes);
  const int64_t splits =
      std::clamp<int64_t>(replicas / counts.output_tiles, 1, counts.k_vectors);
  const int64_t chunk = ceil_div(counts.k_vectors, splits);
  counts.k_splits = ceil_div(counts.k_vectors, chunk);  // the chunks that hold work
  counts.iterations = dot_mul(ceil_div(dot_mul(counts.output_tiles, counts.k_splits), replicas),
                              chunk);
  counts.partials = dot_mul(counts.k_splits, std::min(interleave, chunk));
  return counts;
}

struct DotCandidate {
  GemmChoice choice;
  GemmShape shape;  // oriented as the choice says
  DotTile tile;
  int64_t replicas = 1;
  DotCounts counts;
  int64_t estimate = 0;
  int64_t lower_bound = 0;
};

// Every dot tiling in both orientations by analytical estimate (ResMII, an estimated depth: a
// load, the accumulator, a hop); with `only`, just that one.
std::vector<DotCandidate> dot_candidates(const DataflowParams& params, const GemmShape& shape,
                                         std::optional<GemmChoice> only) {
  std::vector<DotCandidate> found;
  const int64_t elem = ir::dtype_bytes(shape.dtype);
  const int64_t interleave = accumulator_interleave(params, shape.dtype);
  for (const GemmShape& oriented : {shape, transposed(shape)}) {
    if (only && only->swapped != oriented.swapped) continue;
    for (int64_t nu = 1; nu <= std::min(oriented.n, kMaxUnroll); nu *= 2) {
      if (only && only->n_unroll != nu) continue;
      DotCandidate candidate;
      candidate.shape = oriented;
      candidate.tile = {nu, interleave, oriented.dtype};
      const Dfg single = dot_dfg(params, candidate.tile);
      const DotCounts one = dot_counts(params, oriented, nu, interleave, 1);
      const int64_t fill = std::min(replicas_to_fill(params, single),
                                    dot_mul(one.output_tiles, one.k_vectors));
      std::vector<int64_t> replica_choices = {fill};
      if (fill > 1) replica_choices.push_back(fill / 2);
      for (int64_t replicas : replica_choices) {
        candidate.choice = {1, nu, replicas != fill, false, oriented.swapped, true};
        if (only && only->half_replicas != candidate.choice.half_replicas) continue;
        candidate.replicas = replicas;
        candidate.counts = dot_counts(params, oriented, nu, interleave, replicas);
        const int64_t ii = res_mii(params, single.replicated(replicas), elem);
        const int64_t depth = params.memory.access_cycles + params.pe.latency("mac") + 2;
        candidate.lower_bound = dot_mul(ii, candidate.counts.iterations - 1);
        candidate.estimate = depth + candidate.lower_bound;
        found.push_back(candidate);
      }
    }
  }
  std::stable_sort(found.begin(), found.end(), [](const DotCandidate& a, const DotCandidate& b) {
    return a.estimate < b.estimate;
  });
  return found;
}

// What the loop over K reads from DRAM: a row of A once if it stays while its column tiles
// run (or there is one), else once per column tile; B once if it stays (a quarter of the
// scratchpads, as gemm_plan's operands) or there is one row, else once per row.
int64_t dot_read_bytes(const DataflowParams& params, const GemmShape& shape, int64_t n_unroll) {
  const double quarter = params.scratchpad_bytes() / 4.0;
  const int64_t elem = ir::dtype_bytes(shape.dtype);
  const int64_t column_tiles = ceil_div(shape.n, n_unroll);
  const bool row_stays = static_cast<double>(dot_mul(shape.k, elem)) <= quarter;
  const int64_t a_passes = column_tiles == 1 || row_stays ? 1 : column_tiles;
  const int64_t b_passes =
      shape.rows == 1 || static_cast<double>(shape.stationary_bytes) <= quarter ? 1 : shape.rows;
  return dot_mul(shape.repeats, dot_mul(shape.a_bytes, a_passes) +
                                    dot_mul(shape.stationary_bytes, b_passes));
}

LoopPhase dot_loop_phase(const DataflowParams& params, const DotCandidate& chosen,
                         std::shared_ptr<const MappedLoop> loop, const std::string& label) {
  const int64_t elem = ir::dtype_bytes(chosen.shape.dtype);
  const DotCounts& counts = chosen.counts;
  const int64_t read = dot_read_bytes(params, chosen.shape, chosen.tile.n_unroll);
  LoopPhase phase;
  phase.label = label;
  phase.loop = std::move(loop);
  phase.iterations = counts.iterations;
  phase.steps = stream_steps(*phase.loop, counts.iterations,
                             stream_step_count(params, read, counts.iterations), read, 0);
  for (const PlanStep& step : phase.steps) phase.compute_cycles += dot_mul(step.cycles, step.count);
  describe_phase(params, phase, elem);
  // The accumulators' partials, written once per output tile a copy worked on.
  phase.activity.scratchpad_bytes +=
      dot_mul(dot_mul(dot_mul(counts.output_tiles, chosen.tile.n_unroll), counts.partials),
              dot_mul(params.pe.lanes, elem));
  phase.mapping["orientation"] = chosen.shape.swapped ? "C^T = B^T A^T" : "C = A B";
  phase.mapping["form"] = "dot products over K";
  phase.mapping["n_unroll"] = chosen.tile.n_unroll;
  phase.mapping["output_tiles"] = counts.output_tiles;
  phase.mapping["k_vectors"] = counts.k_vectors;
  phase.mapping["k_splits"] = counts.k_splits;
  phase.mapping["accumulator_interleave"] = chosen.tile.interleave;
  phase.mapping["partials_per_output"] = dot_mul(counts.partials, params.pe.lanes);
  return phase;
}

// Sums each output's partials: the row kernels' reduce over rows = outputs, columns = the
// partials' values, reading them where the loop over K left them (no DRAM read) and writing C.
LoopPhase reduction_phase(const DataflowParams& params, MappingCache& cache,
                          const DotCandidate& chosen, const std::string& label) {
  const GemmShape& shape = chosen.shape;
  const int64_t outputs = dot_mul(dot_mul(shape.rows, shape.n), shape.repeats);
  const ir::Op reduce{label + ".reduce",
                      ir::ReduceAttrs{outputs, dot_mul(chosen.counts.partials, params.pe.lanes),
                                      "sum"},
                      shape.dtype,
                      {}};
  LoopPhase phase = plan_row_phase(params, cache, reduce, shape.dtype);
  for (PlanStep& step : phase.steps) step.dram_read_bytes = 0;
  phase.label = reduce.name;
  phase.mapping["loop"] = reduce.name;
  return phase;
}

}  // namespace

bool dot_applies(const DataflowParams& params, const GemmShape& shape) {
  return std::min(shape.rows, shape.n) < params.pe.lanes;
}

std::vector<GemmChoice> dot_choices(const DataflowParams& params, const GemmShape& shape) {
  std::vector<GemmChoice> choices;
  for (const DotCandidate& candidate : dot_candidates(params, shape, std::nullopt)) {
    choices.push_back(candidate.choice);
  }
  return choices;
}

std::vector<LoopPhase> plan_dot_phases(const DataflowParams& params, MappingCache& cache,
                                       const GemmShape& shape, const std::string& label,
                                       std::optional<GemmChoice> choice,
                                       const sim::MemoryView& memory) {
  const int64_t elem = ir::dtype_bytes(shape.dtype);
  std::vector<LoopPhase> best;
  int64_t best_estimate = std::numeric_limits<int64_t>::max();
  for (const DotCandidate& candidate : dot_candidates(params, shape, choice)) {
    if (candidate.lower_bound >= best_estimate) continue;
    auto loop = cache.map(params, dot_dfg(params, candidate.tile), candidate.replicas, elem);
    std::vector<LoopPhase> phases = {dot_loop_phase(params, candidate, loop, label),
                                     reduction_phase(params, cache, candidate, label)};
    const int64_t estimate = phases_estimate_cycles(params, phases, memory);
    if (estimate >= best_estimate) continue;
    best_estimate = estimate;
    best = std::move(phases);
  }
  if (best.empty()) {
    throw_runtime({}, "dataflow gemm: no dot-product tiling matches the forced choice");
  }
  return best;
}

}  // namespace polyarch::archs::dataflow
