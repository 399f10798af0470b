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

// A GEMM as the fabric streams it: `rows` rows of A against a [k x n] B, `repeats` times.
struct GemmShape {
  int64_t rows = 0;
  int64_t n = 0;
  int64_t k = 0;
  int64_t repeats = 1;
  int64_t a_bytes = 0;  // distinct A (or ifmap) bytes per repeat in DRAM
  bool bias = false;
  ir::DType dtype = ir::DType::kFp32;
};

GemmShape gemm_shape(const ir::Op& op, ir::DType dtype);
// The GEMM tilings plan_gemm_phase chooses among (GemmChoice: cost_model.h), in the order it
// places them: by their analytical estimate.
std::vector<GemmChoice> gemm_choices(const DataflowParams& params, const GemmShape& shape);
// `choice` (one of gemm_choices) forces the tiling; without it the fastest placed one, its rows
// blocked when that makes the phase faster with `memory` in front of the fabric.
LoopPhase plan_gemm_phase(const DataflowParams& params, MappingCache& cache, const GemmShape& shape,
                          const std::string& label, std::optional<GemmChoice> choice,
                          const sim::MemoryView& memory);

// A fused chain of elementwise steps over `elements` outputs (one op is a chain of one).
LoopPhase plan_chain_phase(const DataflowParams& params, MappingCache& cache,
                           const std::vector<ChainStep>& steps, int64_t elements, ir::DType dtype);

// Softmax, norms, reduce, pool, embedding and copy.
LoopPhase plan_row_phase(const DataflowParams& params, MappingCache& cache, const ir::Op& op,
                         ir::DType dtype);

// Shared by the planners: the phase's steps for `iterations` trip counts cut into `steps`
// equal chunks; the first pays the pipeline's fill and drain (depth - II).
std::vector<PlanStep> stream_steps(const MappedLoop& loop, int64_t iterations, int64_t steps,
                                   int64_t read_bytes, int64_t write_bytes);
// One phase's estimate_cycles as the only phase of a plan (reconfiguration excluded).
int64_t phase_estimate_cycles(const DataflowParams& params, const LoopPhase& phase,
                              const sim::MemoryView& memory);
// Fills mapping JSON, configuration cost and activity common to every phase.
void describe_phase(const DataflowParams& params, LoopPhase& phase, int64_t element_bytes);

}  // namespace polyarch::archs::dataflow
