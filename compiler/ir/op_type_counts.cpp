#include "compiler/ir/op_type_counts.h"

#include "base/checked_math.h"

namespace polyarch::ir {

std::map<std::string, OpTypeTotals> op_type_totals(const Graph& graph) {
  std::map<std::string, OpTypeTotals> totals;
  for (NodeId id = 0; id < graph.node_count(); ++id) {
    if (!graph.is_op(id)) continue;
    const Op& op = graph.op(id);
    OpTypeTotals& entry = totals[op_type_name(op)];
    ++entry.count;
    entry.macs = checked_add(entry.macs, mac_count(op), "MACs per op type");
  }
  return totals;
}

}  // namespace polyarch::ir
