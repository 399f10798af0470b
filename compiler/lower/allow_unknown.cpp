#include "compiler/lower/allow_unknown.h"

#include <algorithm>
#include <memory>

#include "base/checked_math.h"
#include "compiler/passes/unknown_ops.h"

namespace polyarch::lower {

namespace {

std::string qualified_op_type(const ir::OnnxNodeAttrs& node) {
  return node.domain.empty() ? node.op_type : node.domain + "." + node.op_type;
}

// Whether every result has a model-declared shape and type.
bool results_declared(const ir::Graph& graph, ir::NodeId op_id) {
  for (ir::NodeId result : graph.outputs_of(op_id)) {
    const ir::Tensor& tensor = graph.tensor(result);
    if (!tensor.shape_known() || !tensor.dtype_known) return false;
  }
  return true;
}

int64_t result_elements(const ir::Graph& graph, ir::NodeId op_id) {
  int64_t elements = 0;
  for (ir::NodeId result : graph.outputs_of(op_id)) {
    elements = checked_add(elements, ir::element_count(graph.tensor(result).shape),
                           "unknown op result elements");
  }
  return elements;
}

}  // namespace

ir::ElementwiseAttrs unknown_op_attrs(const std::string& qualified_op_type,
                                      int64_t result_elements) {
  // A zero-element result still names a real op; cost it as one element so it validates.
  return {"unknown:" + qualified_op_type, std::max<int64_t>(1, result_elements), 1};
}

Lowered lower_unknown_op(const LowerContext& context) {
  int64_t elements = 0;
  for (std::size_t i = 0; i < context.result_count(); ++i) {
    elements = checked_add(elements, context.result_elements(i), "unknown op result elements");
  }
  return {unknown_op_attrs(context.op_type(), elements), context.present_operands()};
}

passes::PassStatistics AllowUnknownOpsPass::run(ir::Graph& graph) {
  passes::PassStatistics statistics;
  for (const char* counter : {"unknown ops", "declared", "shape assumed"}) {
    statistics.add(counter, 0);
  }
  for (ir::NodeId op_id : graph.topological_ops()) {
    ir::Op& op = graph.op(op_id);
    auto* node = std::get_if<ir::OnnxNodeAttrs>(&op.attrs);
    if (node == nullptr || node->domain == passes::kUnknownOpDomain ||
        passes::is_supported_onnx_node(*node)) {
      continue;
    }
    statistics.add("unknown ops");
    const std::string op_type = qualified_op_type(*node);
    if (!results_declared(graph, op_id)) {
      node->op_type = op_type;
      node->domain = std::string(passes::kUnknownOpDomain);
      statistics.add("shape assumed");
      continue;
    }
    // Canonical at once: later passes see a known op with known results.
    const std::vector<ir::NodeId> inputs = graph.inputs_of(op_id);
    ir::Op canonical;
    canonical.name = op.name;
    canonical.where = op.where;
    canonical.lowered_from = std::make_shared<ir::OnnxNodeAttrs>(*node);
    canonical.attrs = unknown_op_attrs(op_type, result_elements(graph, op_id));
    canonical.dtype =
        graph.tensor(inputs.empty() ? graph.outputs_of(op_id).front() : inputs.front()).dtype;
    op = std::move(canonical);
    statistics.add("declared");
  }
  return statistics;
}

}  // namespace polyarch::lower
