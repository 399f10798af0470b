#pragma once
// Which element type each op of a run was computed in: the unit's (UnitConfig::run_dtype), with
// the graph's type beside it where the unit converted the op, so a report never mixes an op's
// bytes in one type with a unit's arithmetic in another without saying so.
#include "archs/soc/soc_config.h"
#include "compiler/ir/graph.h"
#include "sim/result.h"

namespace polyarch::driver {

// Fills ops[].dtype and ops[].converted_from of `result`, a run of `graph` on `soc`.
void record_op_dtypes(const archs::SocConfig& soc, const ir::Graph& graph, sim::RunResult& result);

}  // namespace polyarch::driver
