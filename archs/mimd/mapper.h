#pragma once
// Partitions an op over a mimd unit's cores: GEMM and convolution (implicit GEMM) as a 2-D grid
// of output blocks (whole GEMMs per core when a batch has more GEMMs than cores), attention as
// (sequence, head, query block) items, streaming ops by rows or elements. Searches the grid
// shape with estimate_cycles. Equations: README.md.
#include <cstdint>
#include <optional>
#include <vector>

#include "archs/mimd/mimd_plan.h"
#include "archs/mimd/params.h"
#include "compiler/ir/op.h"
#include "sim/memory/memory_view.h"

namespace polyarch::archs::mimd {

using MimdMemoryView = sim::MemoryView;

bool mimd_supports(const ir::Op& op);

// A GEMM's (or implicit-GEMM convolution's) partition: `rows` x `cols` cores per GEMM.
struct GemmGrid {
  int64_t rows = 1;
  int64_t cols = 1;
};

// The grids plan_op chooses among for a GEMM or convolution, in the order it tries them: every
// `rows` from 1 with cols = cores per GEMM / rows, kept when rows <= M and cols <= N; a single
// core when none is. Empty for other ops. (The mapping space of mimd_space.h.)
std::vector<GemmGrid> gemm_grid_candidates(const MimdParams& params, const ir::Op& op);

// `grid` forces a GEMM or convolution's partition (one of gemm_grid_candidates); without it the
// candidate with the fewest estimated cycles is chosen, the first on ties.
MimdPlan plan_op(const MimdParams& params, const ir::Op& op, const MimdMemoryView& memory,
                 double clock_ghz, std::optional<GemmGrid> grid = std::nullopt);

// Each step takes the longest of its compute, its share of DRAM bandwidth and of the memory
// ports' NoC links (all active cores load at once), and its bytes at the rate one core's
// outstanding line misses sustain (plan.core_miss_bytes_per_cycle); plus the exposed first load
// (with its latency), the last store, the dispatch and the barrier.
int64_t estimate_cycles(const MimdParams& params, const MimdPlan& plan,
                        const MimdMemoryView& memory);

}  // namespace polyarch::archs::mimd
