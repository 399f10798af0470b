#include "mapping/partition/transfer_cost.h"

#include <algorithm>

#include "compiler/ir/dtype.h"

namespace polyarch::mapping {

std::string_view transfer_path_name(TransferPath path) {
  return path == TransferPath::kCopy ? "copy" : "shared_dram";
}

double TransferModel::copy_seconds(int64_t bytes) const {
  if (path != TransferPath::kCopy || bytes <= 0 || bytes_per_second <= 0) return 0.0;
  return static_cast<double>(bytes) / bytes_per_second;
}

double TransferModel::cross_unit_seconds(int64_t bytes) const {
  return hand_over_s + copy_seconds(bytes);
}

int64_t dependency_bytes(const ir::Graph& graph, ir::NodeId producer, ir::NodeId consumer) {
  const std::vector<ir::NodeId> inputs = graph.inputs_of(consumer);
  int64_t bytes = 0;
  for (ir::NodeId output : graph.outputs_of(producer)) {
    if (std::find(inputs.begin(), inputs.end(), output) == inputs.end()) continue;
    const ir::Tensor& tensor = graph.tensor(output);
    if (!tensor.shape_known()) continue;
    bytes += ir::storage_bytes(ir::element_count(tensor.shape), tensor.dtype);
  }
  return bytes;
}

TransferTotals apply_transfers(const ir::Graph& graph, Program& program,
                               const TransferModel& transfer) {
  TransferTotals totals;
  for (ProgramOp& op : program.ops) {
    op.dep_delay_s.assign(op.deps.size(), 0.0);
    for (std::size_t position = 0; position < op.deps.size(); ++position) {
      const ProgramOp& producer = program.ops[static_cast<std::size_t>(op.deps[position])];
      if (producer.unit_index == op.unit_index) continue;
      const int64_t bytes = dependency_bytes(graph, producer.node, op.node);
      op.dep_delay_s[position] = transfer.cross_unit_seconds(bytes);
      ++totals.count;
      totals.bytes += bytes;
      totals.seconds += op.dep_delay_s[position];
      totals.copy_seconds += transfer.copy_seconds(bytes);
    }
  }
  return totals;
}

}  // namespace polyarch::mapping
