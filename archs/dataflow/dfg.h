#pragma once
// The inner-loop dataflow graph (DFG) of an op as the fabric runs it: one iteration's
// operations (loads and stores on memory PEs, ALU ops and MACs on compute PEs) and the values
// between them. An edge with distance d > 0 is loop-carried: the consumer in iteration i uses
// the producer's value of iteration i - d (an accumulator has a self edge of distance 1).
#include <cstdint>
#include <string>
#include <vector>

namespace polyarch::archs::dataflow {

enum class NodeKind { kLoad, kStore, kAlu, kMac };

struct DfgNode {
  NodeKind kind = NodeKind::kAlu;
  std::string op;         // ALU op name, "mac", "load" or "store"
  int64_t latency = 1;    // cycles from issue to result
  int64_t registers = 0;  // values the node holds across iterations (a stationary weight)
};

struct DfgEdge {
  int src = 0;
  int dst = 0;
  int64_t distance = 0;  // iterations between producer and consumer
};

struct Dfg {
  std::string label;  // what the graph computes, for reports
  std::vector<DfgNode> nodes;
  std::vector<DfgEdge> edges;

  int add(NodeKind kind, std::string op, int64_t latency, int64_t registers = 0);
  void connect(int src, int dst, int64_t distance = 0);
  bool is_memory(int node) const;
  int64_t compute_nodes() const;
  int64_t memory_nodes() const;
  int64_t count(NodeKind kind) const;
  // Copies of the graph side by side (spatial unrolling): node i of copy c is c * size + i.
  Dfg replicated(int64_t copies) const;
};

}  // namespace polyarch::archs::dataflow
