#include "compiler/lower/compile_json.h"

#include <nlohmann/json.hpp>

#include "compiler/ir/op_bytes.h"
#include "compiler/ir/shape_text.h"
#include "compiler/ir/tensor_text.h"
#include "compiler/lower/op_table.h"

namespace polyarch::lower {

namespace {

using Json = nlohmann::ordered_json;

Json pass_json(const passes::PassRecord& record) {
  Json counters = Json::object();
  for (const auto& [counter, value] : record.statistics.counters) counters[counter] = value;
  return {{"name", record.pass},
          {"ops_before", record.ops_before},
          {"ops_after", record.ops_after},
          {"changes", counters}};
}

Json shapes_json(const ir::Graph& graph, const std::vector<ir::NodeId>& tensors) {
  Json shapes = Json::array();
  for (ir::NodeId id : tensors) shapes.push_back(ir::tensor_shape_text(graph.tensor(id)));
  return shapes;
}

Json op_json(const ir::Graph& graph, ir::NodeId id) {
  const ir::Op& op = graph.op(id);
  const ir::BytesReadWritten bytes = ir::bytes_read_written(op);
  return {{"name", op.name},
          {"type", ir::op_type_name(op)},
          {"dtype", op.dtype ? std::string(ir::dtype_name(*op.dtype)) : "native"},
          {"macs", ir::mac_count(op)},
          {"flops", ir::flop_count(op)},
          {"bytes_read", bytes.read},
          {"bytes_written", bytes.written},
          {"input_shapes", shapes_json(graph, graph.inputs_of(id))},
          {"output_shapes", shapes_json(graph, graph.outputs_of(id))}};
}

}  // namespace

Json compile_json(const std::string& workload, const ir::Graph& graph,
                         const std::vector<passes::PassRecord>& records) {
  Json passes = Json::array();
  for (const passes::PassRecord& record : records) passes.push_back(pass_json(record));
  Json ops = Json::array();
  for (ir::NodeId id : graph.topological_ops()) ops.push_back(op_json(graph, id));
  const GraphTotals totals = graph_totals(graph);
  Json report = {{"workload", workload},
                 {"graph", graph.name()},
                 {"passes", passes},
                 {"ops", ops},
                 {"totals",
                  {{"ops", totals.ops},
                   {"macs", totals.macs},
                   {"flops", totals.flops},
                   {"bytes", totals.bytes},
                   {"parameters", totals.parameters},
                   {"macs_by_type", totals.macs_by_type}}}};
  return report;
}

}  // namespace polyarch::lower
