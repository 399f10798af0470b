#pragma once
// A Program: which unit runs which op, in what order, after which other ops. The simulator
// executes it; it knows nothing of how the assignment was chosen.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"

namespace polyarch::mapping {

struct ProgramOp {
  ir::NodeId node = 0;    // the op in the graph
  int unit_index = 0;     // into the SoC's unit list
  std::vector<int> deps;  // indices into Program::ops that must finish first (data producers)
  // Seconds the op waits after each dep finished (parallel to deps; empty or short: 0): the
  // cross-unit hand-over and copy of mapping/partition/transfer_cost.h.
  std::vector<double> dep_delay_s;
  int micro_batch = 0;  // which copy of the graph, in a pipelined program
};

struct Program {
  std::vector<ProgramOp> ops;  // in graph topological order (micro-batch by micro-batch)
  std::vector<std::vector<int>> per_unit;  // each unit's ops (indices into ops), in issue order
  int micro_batches = 1;  // > 1: the graph's ops repeated once per micro-batch (layer pipelining)
};

// What the partitioner needs to know of a unit: which ops it runs and, for the list scheduler,
// how long an op takes there by its analytical model (nullopt: no estimate).
struct UnitCapability {
  std::string name;
  std::string kind;
  std::function<bool(const ir::Op&)> supports;
  std::function<std::optional<double>(const ir::Op&)> estimate_seconds;
};

// Assigns every op to the first unit (in SoC order) that supports it and orders each unit's ops
// topologically. An op no unit supports is a bad-input error naming the op and its kind.
Program partition_graph(const ir::Graph& graph, const std::vector<UnitCapability>& units);

// The program's ops in topological order with their data dependencies, every unit_index -1:
// the skeleton both partitioners fill.
Program program_skeleton(const ir::Graph& graph, std::size_t unit_count);

// `one` (a skeleton) repeated for `micro_batches` independent inputs: copy k's ops follow copy
// k-1's, each depending only on ops of its own copy.
Program replicate_micro_batches(const Program& one, int micro_batches);

// The units that support `op`; none is a bad-input error naming the op and the units.
std::vector<int> capable_units(const ir::Op& op, const std::vector<UnitCapability>& units);

}  // namespace polyarch::mapping
