#include "compiler/passes/input_signs.h"

#include <algorithm>
#include <map>
#include <set>
#include <variant>

namespace polyarch::passes {

namespace {

bool never_negative_function(const std::string& fn) {
  static const std::set<std::string> kFunctions = {"relu", "sigmoid", "hardsigmoid", "exp",
                                                   "abs",  "sqrt",    "softplus"};
  return kFunctions.contains(fn);
}

bool never_negative_activation(const std::optional<ir::Activation>& activation) {
  if (!activation) return false;
  if (activation->fn == "clip") {
    const auto min = activation->params.find("min");
    return min != activation->params.end() && min->second >= 0.0;
  }
  return never_negative_function(activation->fn);
}

// Whether every result of `op` is non-negative, given which of its inputs are.
bool results_never_negative(const ir::Op& op, const std::vector<bool>& inputs_non_negative) {
  const bool all_inputs = !inputs_non_negative.empty() &&
                          std::all_of(inputs_non_negative.begin(), inputs_non_negative.end(),
                                      [](bool non_negative) { return non_negative; });
  const bool first_input = !inputs_non_negative.empty() && inputs_non_negative.front();
  if (const auto* gemm = std::get_if<ir::GemmAttrs>(&op.attrs)) {
    return never_negative_activation(gemm->activation);
  }
  if (const auto* conv = std::get_if<ir::Conv2dAttrs>(&op.attrs)) {
    return never_negative_activation(conv->activation);
  }
  if (const auto* elementwise = std::get_if<ir::ElementwiseAttrs>(&op.attrs)) {
    if (never_negative_function(elementwise->fn)) return true;
    if (elementwise->fn == "max")
      return std::find(inputs_non_negative.begin(), inputs_non_negative.end(), true) !=
             inputs_non_negative.end();
    const bool closed = elementwise->fn == "add" || elementwise->fn == "mul" ||
                        elementwise->fn == "min" || elementwise->fn == "identity";
    return closed && all_inputs;
  }
  if (std::holds_alternative<ir::SoftmaxAttrs>(op.attrs)) return true;
  if (std::holds_alternative<ir::PoolAttrs>(op.attrs) ||
      std::holds_alternative<ir::CopyAttrs>(op.attrs)) {
    return first_input;
  }
  if (const auto* reduce = std::get_if<ir::ReduceAttrs>(&op.attrs)) {
    return first_input && (reduce->fn == "mean" || reduce->fn == "sum" || reduce->fn == "max" ||
                           reduce->fn == "min");
  }
  return false;
}

}  // namespace

PassStatistics mark_signed_inputs(ir::Graph& graph) {
  PassStatistics statistics;
  std::map<ir::NodeId, bool> non_negative;  // tensors produced by an op already visited
  for (ir::NodeId op_id : graph.topological_ops()) {
    ir::Op& op = graph.op(op_id);
    const std::vector<ir::NodeId> inputs = graph.inputs_of(op_id);
    std::vector<bool> inputs_non_negative;
    for (ir::NodeId input : inputs) {
      const auto known = non_negative.find(input);
      inputs_non_negative.push_back(known != non_negative.end() && known->second);
    }
    const bool produced = !inputs.empty() && non_negative.contains(inputs.front());
    // A model's input may be negative unless the op says otherwise (a layer list's layer).
    if (produced || !op.signed_input) {
      op.signed_input = inputs.empty() || !inputs_non_negative.front();
    }
    statistics.add(*op.signed_input ? "signed" : "unsigned");
    const bool results = results_never_negative(op, inputs_non_negative);
    for (ir::NodeId output : graph.outputs_of(op_id)) non_negative[output] = results;
  }
  return statistics;
}

}  // namespace polyarch::passes
