#include "compiler/lower/op_table.h"

#include <cstdio>
#include <set>

#include "base/checked_math.h"
#include "compiler/ir/shape_text.h"

namespace polyarch::lower {

namespace {

std::string shape_of(const ir::Graph& graph, const std::vector<ir::NodeId>& tensors) {
  if (tensors.empty()) return "-";
  const ir::Tensor& tensor = graph.tensor(tensors.front());
  return tensor.shape_known() ? ir::shape_text(tensor.shape) : "[?]";
}

bool is_view(const ir::Op& op) {
  const auto* copy = std::get_if<ir::CopyAttrs>(&op.attrs);
  return copy != nullptr && copy->is_view;
}

// A weight-only model's DequantizeLinear folded into its reader (passes/qdq_weights.h) is a
// view that still reads the stored codes, which are the model's parameters.
bool reads_parameters(const ir::Op& op) {
  if (op.kind() == ir::OpKind::kFrontend) return false;
  return !is_view(op) ||
         (op.lowered_from != nullptr && op.lowered_from->op_type == "DequantizeLinear");
}

}  // namespace

std::string mac_type_label(const ir::Op& op) {
  std::string label = op.dtype ? std::string(ir::dtype_name(*op.dtype)) : "native";
  if (op.weight_format) {
    label += " (" + std::string(ir::dtype_name(op.weight_format->dtype)) + " weights)";
  }
  const auto* attention = std::get_if<ir::AttentionAttrs>(&op.attrs);
  if (attention != nullptr && attention->kv_dtype) {
    label += " (" + std::string(ir::dtype_name(*attention->kv_dtype)) + " KV)";
  }
  return label;
}

std::vector<OpRow> op_rows(const ir::Graph& graph) {
  std::vector<OpRow> rows;
  for (ir::NodeId op_id : graph.topological_ops()) {
    const ir::Op& op = graph.op(op_id);
    OpRow row;
    row.name = op.name;
    row.kind = ir::op_type_name(op);
    row.shape =
        shape_of(graph, graph.inputs_of(op_id)) + " -> " + shape_of(graph, graph.outputs_of(op_id));
    row.macs = ir::mac_count(op);
    row.flops = ir::flop_count(op);
    row.bytes = ir::bytes_touched(op);
    rows.push_back(std::move(row));
  }
  return rows;
}

GraphTotals graph_totals(const ir::Graph& graph) {
  GraphTotals totals;
  std::set<ir::NodeId> weights;
  for (ir::NodeId op_id : graph.topological_ops()) {
    const ir::Op& op = graph.op(op_id);
    ++totals.ops;
    totals.macs = checked_add(totals.macs, ir::mac_count(op), "total MACs");
    totals.flops = checked_add(totals.flops, ir::flop_count(op), "total FLOPs");
    totals.bytes = checked_add(totals.bytes, ir::bytes_touched(op), "total bytes");
    if (const int64_t macs = ir::mac_count(op); macs > 0) {
      int64_t& by_type = totals.macs_by_type[mac_type_label(op)];
      by_type = checked_add(by_type, macs, "MACs by type");
    }
    if (!reads_parameters(op)) continue;
    for (ir::NodeId input : graph.inputs_of(op_id)) {
      if (graph.tensor(input).role == ir::TensorRole::kWeight) weights.insert(input);
    }
  }
  for (ir::NodeId weight : weights) {
    totals.parameters = checked_add(
        totals.parameters, ir::element_count(graph.tensor(weight).shape), "total parameters");
  }
  return totals;
}

std::string format_op_table(const std::vector<OpRow>& rows, const GraphTotals& totals) {
  std::string table;
  char line[512];
  std::snprintf(line, sizeof(line), "%-48s %-12s %-40s %14s %14s %14s\n", "op", "kind", "shape",
                "MACs", "FLOPs", "bytes");
  table += line;
  for (const OpRow& row : rows) {
    std::snprintf(line, sizeof(line), "%-48s %-12s %-40s %14lld %14lld %14lld\n", row.name.c_str(),
                  row.kind.c_str(), row.shape.c_str(), static_cast<long long>(row.macs),
                  static_cast<long long>(row.flops), static_cast<long long>(row.bytes));
    table += line;
  }
  std::snprintf(line, sizeof(line), "%-48s %-12s %-40s %14lld %14lld %14lld\n", "total", "",
                (std::to_string(totals.ops) + " ops").c_str(), static_cast<long long>(totals.macs),
                static_cast<long long>(totals.flops), static_cast<long long>(totals.bytes));
  table += line;
  std::snprintf(line, sizeof(line), "total MACs: %lld (%.3f G)\ntotal parameters: %lld (%.3f M)\n",
                static_cast<long long>(totals.macs), static_cast<double>(totals.macs) / 1e9,
                static_cast<long long>(totals.parameters),
                static_cast<double>(totals.parameters) / 1e6);
  table += line;
  if (!totals.macs_by_type.empty()) {
    table += "MACs by type:";
    const char* separator = " ";
    for (const auto& [type, macs] : totals.macs_by_type) {
      std::snprintf(line, sizeof(line), "%s%s %lld (%.3f G)", separator, type.c_str(),
                    static_cast<long long>(macs), static_cast<double>(macs) / 1e9);
      table += line;
      separator = ", ";
    }
    table += "\n";
  }
  return table;
}

}  // namespace polyarch::lower
