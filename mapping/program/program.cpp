#include "mapping/program/program.h"

#include <map>
#include <string>

#include "base/error.h"

namespace polyarch::mapping {

Program program_skeleton(const ir::Graph& graph, std::size_t unit_count) {
  Program program;
  program.per_unit.resize(unit_count);
  // Which program op produced each tensor: an op depends on the producers of its inputs.
  std::map<ir::NodeId, int> producer_of_tensor;
  for (ir::NodeId node : graph.topological_ops()) {
    ProgramOp program_op;
    program_op.node = node;
    program_op.unit_index = -1;
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
  }
  return program;
}

Program replicate_micro_batches(const Program& one, int micro_batches) {
  Program program;
  program.per_unit.resize(one.per_unit.size());
  program.micro_batches = micro_batches;
  const int base = static_cast<int>(one.ops.size());
  for (int copy = 0; copy < micro_batches; ++copy) {
    for (const ProgramOp& op : one.ops) {
      ProgramOp repeated = op;
      repeated.micro_batch = copy;
      for (int& dep : repeated.deps) dep += copy * base;
      program.ops.push_back(std::move(repeated));
    }
  }
  return program;
}

std::vector<int> capable_units(const ir::Op& op, const std::vector<UnitCapability>& units) {
  std::vector<int> capable;
  for (std::size_t candidate = 0; candidate < units.size(); ++candidate) {
    if (units[candidate].supports && units[candidate].supports(op)) {
      capable.push_back(static_cast<int>(candidate));
    }
  }
  if (capable.empty()) {
    std::string known;
    for (const UnitCapability& unit : units) {
      known += (known.empty() ? "" : ", ") + unit.name + " (" + unit.kind + ")";
    }
    throw_bad_input(op.where, "no unit supports op '" + op.name + "' of kind " +
                                  ir::op_type_name(op) +
                                  "; units: " + (known.empty() ? "none" : known));
  }
  return capable;
}

Program partition_graph(const ir::Graph& graph, const std::vector<UnitCapability>& units) {
  Program program = program_skeleton(graph, units.size());
  for (std::size_t index = 0; index < program.ops.size(); ++index) {
    ProgramOp& program_op = program.ops[index];
    program_op.unit_index = capable_units(graph.op(program_op.node), units).front();
    program.per_unit[static_cast<std::size_t>(program_op.unit_index)].push_back(
        static_cast<int>(index));
  }
  return program;
}

}  // namespace polyarch::mapping
