#pragma once
// The planners behind cost_model.h, one per op family: GEMM-like ops (gemm, conv2d) choose the
// tile unroll and spatial replication; streaming ops (elementwise chains, row kernels) replicate
// their graph to fill the fabric and cut the stream into scratchpad-sized steps.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "archs/dataflow/cost_model.h"
#include "archs/dataflow/dfg_builders.h"

namespace polyarch::archs::dataflow {

// The largest unroll of one GEMM dimension the plans try (powers of two up to it): larger tiles
// do not fit known fabrics.
inline constexpr int64_t kMaxUnroll = 64;

// A GEMM as the fabric streams it: `rows` rows of A against a [k x n] B, `repeats` times. In
// the swapped orientation (transposed below) the rows are B's columns and B's role is A's.
struct GemmShape {
  int64_t rows = 0;
  int64_t n = 0;
  int64_t k = 0;
  int64_t repeats = 1;
  int64_t a_bytes = 0;           // distinct A (or ifmap) bytes per repeat in DRAM
  int64_t stationary_bytes = 0;  // distinct B (weight) bytes per repeat in DRAM
  bool bias = false;
  ir::DType dtype = ir::DType::kFp32;
  bool swapped = false;  // C^T = B^T A^T: `rows` are B's columns, `n` A's rows
};

GemmShape gemm_shape(const ir::Op& op, ir::DType dtype);
// C^T = B^T A^T: B's columns stream as rows, A's rows become the output columns, and the two
// operands' DRAM bytes trade places (a convolution's ifmap, not its im2col matrix, is what the
// memory PEs hold and gather the stationary patches from).
GemmShape transposed(const GemmShape& shape);
// The GEMM tilings plan_gemm_phases chooses among (GemmChoice: cost_model.h): weight tiles in
// both orientations in the order it places them (by their analytical estimate), then dot
// products where they apply (dot_applies).
std::vector<GemmChoice> gemm_choices(const DataflowParams& params, const GemmShape& shape);
// `choice` (one of gemm_choices) forces the tiling; without it the weight tiling (either
// orientation, rows whole or blocked) whose estimate with `memory` in front of the fabric is
// smallest, or the dot products when their estimate is smaller still. A
// weight tile is one phase; dot products are two (the loop over K, the partial sums' reduction).
std::vector<LoopPhase> plan_gemm_phases(const DataflowParams& params, MappingCache& cache,
                                        const GemmShape& shape, const std::string& label,
                                        std::optional<GemmChoice> choice,
                                        const sim::MemoryView& memory);

// Dot products (dot_plan.cpp): offered where the GEMM's rows or columns cannot fill a lane
// vector (a dot product, a GEMV), so the weight tiles would run a few iterations per round.
bool dot_applies(const DataflowParams& params, const GemmShape& shape);
// The dot-product choices in both orientations, by analytical estimate.
std::vector<GemmChoice> dot_choices(const DataflowParams& params, const GemmShape& shape);
// `choice` (a dot choice) forces one; without it the one whose estimate with `memory` (both
// loops, each loading its configuration) is smallest.
std::vector<LoopPhase> plan_dot_phases(const DataflowParams& params, MappingCache& cache,
                                       const GemmShape& shape, const std::string& label,
                                       std::optional<GemmChoice> choice,
                                       const sim::MemoryView& memory);
// Phases' estimate_cycles with `memory`, each loading its configuration: how the planners
// compare forms with different phase counts.
int64_t phases_estimate_cycles(const DataflowParams& params, const std::vector<LoopPhase>& phases,
                               const sim::MemoryView& memory);

// A fused chain of elementwise steps over `elements` outputs (one op is a chain of one).
LoopPhase plan_chain_phase(const DataflowParams& params, MappingCache& cache,
                           const std::vector<ChainStep>& steps, int64_t elements, ir::DType dtype);

// Softmax, norms, reduce, pool, embedding and copy.
LoopPhase plan_row_phase(const DataflowParams& params, MappingCache& cache, const ir::Op& op,
                         ir::DType dtype);

// Shared by the planners: how many steps a stream of `bytes` over `iterations` is cut into, so
// that a step's traffic fits half the scratchpads (the other half loads the next one).
int64_t stream_step_count(const DataflowParams& params, int64_t bytes, int64_t iterations);
// The phase's steps for `iterations` trip counts cut into `steps`
// equal chunks; the first pays the pipeline's fill and drain (depth - II).
std::vector<PlanStep> stream_steps(const MappedLoop& loop, int64_t iterations, int64_t steps,
                                   int64_t read_bytes, int64_t write_bytes);
// One phase's estimate_cycles as the only phase of a plan (reconfiguration excluded).
int64_t phase_estimate_cycles(const DataflowParams& params, const LoopPhase& phase,
                              const sim::MemoryView& memory);
// Fills mapping JSON, configuration cost and activity common to every phase.
void describe_phase(const DataflowParams& params, LoopPhase& phase, int64_t element_bytes);

}  // namespace polyarch::archs::dataflow
