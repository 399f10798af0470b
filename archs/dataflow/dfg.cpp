#include "archs/dataflow/dfg.h"

#include <utility>

namespace polyarch::archs::dataflow {

int Dfg::add(NodeKind kind, std::string op, int64_t latency, int64_t registers) {
  nodes.push_back({kind, std::move(op), latency, registers});
  return static_cast<int>(nodes.size()) - 1;
}

void Dfg::connect(int src, int dst, int64_t distance) { edges.push_back({src, dst, distance}); }

bool Dfg::is_memory(int node) const {
  const NodeKind kind = nodes[static_cast<std::size_t>(node)].kind;
  return kind == NodeKind::kLoad || kind == NodeKind::kStore;
}

int64_t Dfg::count(NodeKind kind) const {
  int64_t total = 0;
  for (const DfgNode& node : nodes) total += node.kind == kind ? 1 : 0;
  return total;
}

int64_t Dfg::memory_nodes() const { return count(NodeKind::kLoad) + count(NodeKind::kStore); }

int64_t Dfg::compute_nodes() const { return static_cast<int64_t>(nodes.size()) - memory_nodes(); }

Dfg Dfg::replicated(int64_t copies) const {
  Dfg result;
  result.label = label;
  const int size = static_cast<int>(nodes.size());
  for (int64_t copy = 0; copy < copies; ++copy) {
    const int offset = static_cast<int>(copy) * size;
    for (const DfgNode& node : nodes) result.nodes.push_back(node);
    for (const DfgEdge& edge : edges) {
      result.edges.push_back({edge.src + offset, edge.dst + offset, edge.distance});
    }
  }
  return result;
}

}  // namespace polyarch::archs::dataflow
