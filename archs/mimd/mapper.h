#pragma once
// Partitions an op over a mimd unit's cores: GEMM and convolution (implicit GEMM) as a 2-D grid
// of output blocks (whole GEMMs per core when a batch has more GEMMs than cores), attention as
// (sequence, head, query block) items, streaming ops by rows or elements. Searches the grid
// shape with estimate_cycles. Equations: README.md.
#include <cstdint>

#include "archs/mimd/mimd_plan.h"
#include "archs/mimd/params.h"
#include "compiler/ir/op.h"
#include "sim/memory/memory_view.h"

namespace polyarch::archs::mimd {

using MimdMemoryView = sim::MemoryView;

bool mimd_supports(const ir::Op& op);

MimdPlan plan_op(const MimdParams& params, const ir::Op& op, const MimdMemoryView& memory,
                 double clock_ghz);

// Each step takes the longest of its compute, its share of DRAM bandwidth and of the memory
// ports' NoC links (all active cores load at once); plus the exposed first load (with its
// latency), the last store, the dispatch and the barrier.
int64_t estimate_cycles(const MimdParams& params, const MimdPlan& plan,
                        const MimdMemoryView& memory);

}  // namespace polyarch::archs::mimd
