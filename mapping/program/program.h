#pragma once
// A Program: which unit runs which op, in what order, after which other ops. The simulator
// executes it; it knows nothing of how the assignment was chosen.
#include <functional>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"

namespace polyarch::mapping {

struct ProgramOp {
  ir::NodeId node = 0;    // the op in the graph
  int unit_index = 0;     // into the SoC's unit list
  std::vector<int> deps;  // indices into Program::ops that must finish first (data producers)
};

struct Program {
  std::vector<ProgramOp> ops;            // in graph topological order
  std::vector<std::vector<int>> per_unit;  // each unit's ops (indices into ops), in issue order
};

// What the partitioner needs to know of a unit.
struct UnitCapability {
  std::string name;
  std::string kind;
  std::function<bool(const ir::Op&)> supports;
};

// Assigns every op to the first unit (in SoC order) that supports it and orders each unit's ops
// topologically. An op no unit supports is a bad-input error naming the op and its kind.
Program partition_graph(const ir::Graph& graph, const std::vector<UnitCapability>& units);

}  // namespace polyarch::mapping
