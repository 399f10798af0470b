#include "sim/memory/tensor_allocator.h"

#include <cstdio>
#include <map>

#include "base/checked_math.h"
#include "compiler/ir/stored_operands.h"

namespace polyarch::sim {

namespace {

// As stored: packed elements, and the scales a weight format or a quantised KV cache keeps.
int64_t tensor_bytes(const ir::Graph& graph, ir::NodeId tensor_id,
                     const ir::UnitDType& unit_dtype) {
  if (!graph.tensor(tensor_id).shape_known()) return 0;
  return ir::stored_tensor_bytes(graph, tensor_id, unit_dtype);
}

int64_t align_up(int64_t bytes, int64_t alignment) {
  return checked_mul(ceil_div(bytes, alignment), alignment, "tensor bytes");
}

// The role a tensor plays for the reader of a memory map. K and V of attention are the KV
// cache of a decoder (in a prefill they are the cache being filled).
std::string role_of(const ir::Graph& graph, ir::NodeId tensor_id) {
  const ir::Tensor& tensor = graph.tensor(tensor_id);
  if (tensor.role == ir::TensorRole::kWeight) return "weight";
  for (auto [edge, end] = boost::out_edges(tensor_id, graph.storage()); edge != end; ++edge) {
    const ir::NodeId op_id = boost::target(*edge, graph.storage());
    if (graph.op(op_id).kind() != ir::OpKind::kAttention) continue;
    const std::vector<ir::NodeId> inputs = graph.inputs_of(op_id);
    for (std::size_t position = 1; position < inputs.size() && position <= 2; ++position) {
      if (inputs[position] == tensor_id) return "kv_cache";
    }
  }
  if (tensor.role == ir::TensorRole::kOutput) return "output";
  return "activation";
}

std::string gib_text(int64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.3f", static_cast<double>(bytes) / (1024.0 * 1024 * 1024));
  return text;
}

}  // namespace

TensorAllocation::TensorAllocation(const ir::Graph& graph, const ir::UnitDType& unit_dtype)
    : graph_(graph), placement_of_node_(graph.node_count(), -1) {
  int64_t next = 0;
  std::map<std::string, int> placement_of_name;
  for (ir::NodeId id = 0; id < graph.node_count(); ++id) {
    if (graph.is_op(id)) continue;
    const ir::Tensor& tensor = graph.tensor(id);
    const int64_t bytes = tensor_bytes(graph, id, unit_dtype);
    placement_of_node_[id] = static_cast<int>(tensors_.size());
    placement_of_name.emplace(tensor.name, placement_of_node_[id]);
    if (!tensor.storage_of.empty()) {
      const auto owner = placement_of_name.find(tensor.storage_of);
      if (owner == placement_of_name.end() || tensors_[owner->second].bytes < bytes) {
        throw_runtime({}, "tensor '" + tensor.name + "' reuses the storage of '" +
                              tensor.storage_of + "', which is not an earlier tensor as large");
      }
      tensors_.push_back({tensor.name, role_of(graph, id),
                          tensors_[owner->second].base_address, bytes});
      continue;
    }
    tensors_.push_back({tensor.name, role_of(graph, id), next, bytes});
    next = checked_add(next, align_up(bytes, kAlignmentBytes), "DRAM footprint");
  }
  footprint_bytes_ = next;
}

OpRanges TensorAllocation::ranges_of(ir::NodeId op) const {
  OpRanges ranges;
  auto add_range = [this](std::vector<AddressRange>& list, ir::NodeId tensor) {
    const TensorPlacement& placement = tensors_.at(placement_of_node_.at(tensor));
    if (placement.bytes > 0) list.push_back({placement.base_address, placement.bytes});
  };
  for (ir::NodeId tensor : graph_.inputs_of(op)) add_range(ranges.reads, tensor);
  for (ir::NodeId tensor : graph_.outputs_of(op)) add_range(ranges.writes, tensor);
  return ranges;
}

void require_capacity(const TensorAllocation& allocation, const std::string& workload_name,
                      int64_t capacity_bytes, const SourceLocation& where) {
  if (allocation.footprint_bytes() <= capacity_bytes) return;
  throw_bad_input(where, "workload '" + workload_name + "' needs " +
                             std::to_string(allocation.footprint_bytes()) + " bytes (" +
                             gib_text(allocation.footprint_bytes()) +
                             " GiB) of DRAM for its tensors, more than the DRAM's capacity of " +
                             std::to_string(capacity_bytes) + " bytes (" +
                             gib_text(capacity_bytes) + " GiB)");
}

}  // namespace polyarch::sim
