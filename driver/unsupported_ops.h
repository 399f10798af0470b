#pragma once
// Ops no unit of the SoC can run. A run refuses the workload naming every one of them at once
// (not only the first), or with `--only-supported` simulates the rest and reports what it left
// out: what a SCALE-Sim user expects of a model on a GEMM-only array.
#include <string>
#include <vector>

#include "archs/soc/soc_config.h"
#include "compiler/ir/graph.h"
#include "sim/result.h"

namespace polyarch::driver {

// The SoC's units as errors name them: "mxu (systolic), vector (simd)", or "none".
std::string unit_list(const archs::SocConfig& soc);

// Why units that run attention refuse `op` for its block-sparse layout: "'a' has a
// block-sparse attention pattern, which the models of fabric (dataflow) do not run (...)";
// "" when none does.
std::string pattern_refusal(const archs::SocConfig& soc, const ir::Op& op);

// Bad input listing every op of `graph` that no unit of `soc` supports, counted by op type;
// nothing when every op has a unit. Each of `details` (why an op cannot run in any form) follows
// on a line of its own.
void refuse_unsupported_ops(const archs::SocConfig& soc, const ir::Graph& graph,
                            const std::vector<std::string>& details = {});

// Removes the ops no unit supports (their results stay, as values already in memory) and says
// which they were, in topological order.
std::vector<sim::SkippedOp> skip_unsupported_ops(const archs::SocConfig& soc, ir::Graph& graph);

}  // namespace polyarch::driver
