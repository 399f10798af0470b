#include "compiler/passes/dead_code.h"

#include "compiler/ir/graph_edit.h"

namespace polyarch::passes {

namespace {

// An activation with no producer and no contents is something the caller feeds.
bool is_graph_input(const ir::Graph& graph, ir::NodeId tensor_id) {
  const ir::Tensor& tensor = graph.tensor(tensor_id);
  return tensor.role == ir::TensorRole::kActivation && !tensor.has_data() &&
         !ir::producer_of(graph, tensor_id);
}

}  // namespace

PassStatistics DeadCodeEliminationPass::run(ir::Graph& graph) {
  const std::size_t count = graph.node_count();
  // Walk backwards from the graph outputs: an op is live when it writes a live tensor, and
  // everything a live op reads is live.
  std::vector<bool> live(count, false);
  std::vector<ir::NodeId> pending;
  for (ir::NodeId id = 0; id < count; ++id) {
    if (!graph.is_op(id) && graph.tensor(id).role == ir::TensorRole::kOutput) {
      live[id] = true;
      pending.push_back(id);
    }
  }
  while (!pending.empty()) {
    const ir::NodeId id = pending.back();
    pending.pop_back();
    const std::vector<ir::NodeId> next =
        graph.is_op(id)
            ? graph.inputs_of(id)
            : (ir::producer_of(graph, id) ? std::vector<ir::NodeId>{*ir::producer_of(graph, id)}
                                          : std::vector<ir::NodeId>{});
    for (ir::NodeId node : next) {
      if (!live[node]) {
        live[node] = true;
        pending.push_back(node);
      }
    }
  }
  // A live op keeps all its results, used or not (Split's, MaxPool's indices).
  for (ir::NodeId id = 0; id < count; ++id) {
    if (!graph.is_op(id) || !live[id]) continue;
    for (ir::NodeId result : graph.outputs_of(id)) live[result] = true;
  }
  PassStatistics statistics;
  statistics.add("ops erased", 0);
  statistics.add("tensors erased", 0);
  ir::GraphEdit edit(graph);
  for (ir::NodeId id = 0; id < count; ++id) {
    if (live[id] || (!graph.is_op(id) && is_graph_input(graph, id))) continue;
    if (graph.is_op(id)) {
      edit.erase_op(id);
      statistics.add("ops erased");
    } else {
      edit.erase_tensor(id);
      statistics.add("tensors erased");
    }
  }
  if (statistics.get("ops erased") + statistics.get("tensors erased") > 0) {
    graph = edit.apply().graph;
  }
  return statistics;
}

}  // namespace polyarch::passes
