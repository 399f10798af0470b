#pragma once
// A small ASCII picture of a placement for the op's report entry: one 3-character cell per
// compute PE (kind letter and node count: M = MACs, A = ALU ops, '.' unused) and the memory PEs
// round the edges (L loads, S stores, B both, '-' unused), e.g.
//        L  L  S  -
//     L M4 M4 A2  .  S
#include <string>
#include <vector>

#include "archs/dataflow/dfg.h"
#include "archs/dataflow/fabric.h"
#include "archs/dataflow/placement.h"

namespace polyarch::archs::dataflow {

std::vector<std::string> placement_picture(const Fabric& fabric, const Dfg& dfg,
                                           const Placement& placement);

}  // namespace polyarch::archs::dataflow
