#include "mapping/program/program.h"

#include <map>
#include <string>

#include "compiler/support/error.h"

namespace polyarch::mapping {

Program partition_graph(const ir::Graph& graph, const std::vector<UnitCapability>& units) {
  Program program;
  program.per_unit.resize(units.size());
  // Which program op produced each tensor: an op depends on the producers of its inputs.
  std::map<ir::NodeId, int> producer_of_tensor;
  for (ir::NodeId node : graph.topological_ops()) {
    const ir::Op& op = graph.op(node);
    int unit_index = -1;
    for (std::size_t candidate = 0; candidate < units.size(); ++candidate) {
      if (units[candidate].supports && units[candidate].supports(op)) {
        unit_index = static_cast<int>(candidate);
        break;
      }
    }
    if (unit_index < 0) {
      std::string known;
      for (const UnitCapability& unit : units) {
        known += (known.empty() ? "" : ", ") + unit.name + " (" + unit.kind + ")";
      }
      throw_bad_input(op.where, "no unit supports op '" + op.name + "' of kind " +
                                    ir::op_type_name(op) +
                                    "; units: " + (known.empty() ? "none" : known));
    }
    ProgramOp program_op;
    program_op.node = node;
    program_op.unit_index = unit_index;
    for (ir::NodeId input : graph.inputs_of(node)) {
      auto producer = producer_of_tensor.find(input);
      if (producer == producer_of_tensor.end()) continue;  // a graph input or a weight
      bool seen = false;
      for (int dep : program_op.deps) seen = seen || dep == producer->second;
      if (!seen) program_op.deps.push_back(producer->second);
    }
    const int op_index = static_cast<int>(program.ops.size());
    for (ir::NodeId output : graph.outputs_of(node)) producer_of_tensor[output] = op_index;
    program.ops.push_back(std::move(program_op));
    program.per_unit[unit_index].push_back(op_index);
  }
  return program;
}

}  // namespace polyarch::mapping
