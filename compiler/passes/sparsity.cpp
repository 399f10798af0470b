#include "compiler/passes/sparsity.h"

#include <algorithm>
#include <charconv>

#include "compiler/ir/graph_edit.h"
#include "compiler/passes/onnx_node.h"
#include "compiler/passes/tensor_values.h"

namespace polyarch::passes {

namespace {

constexpr int64_t kMaxGroup = 64;

[[noreturn]] void bad_policy(const std::string& text) {
  throw_bad_input({}, "--sparsity " + text +
                          ": expected N:M (e.g. 2:4, 0 < N < M <= 64) or a density in (0, 1]");
}

std::optional<int64_t> whole_number(std::string_view text) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The weight operand viewed as [outer, reduction, inner]: which axis the op sums over.
struct WeightView {
  int64_t outer = 1;
  int64_t reduction = 1;
  int64_t inner = 1;
};

std::optional<WeightView> weight_view(const ir::Op& op, const std::vector<int64_t>& shape) {
  if (shape.empty()) return std::nullopt;
  WeightView view;
  if (std::holds_alternative<ir::Conv2dAttrs>(op.attrs)) {
    // [K, C/groups, R, S]: each filter sums over its C/groups * R * S weights.
    view.outer = shape[0];
    view.reduction = ir::element_count(shape) / std::max<int64_t>(1, shape[0]);
    return view;
  }
  if (shape.size() < 2) return std::nullopt;
  const bool trans_b =
      op.lowered_from != nullptr && int_attribute(*op.lowered_from, "transB", 0) != 0;
  const std::size_t last = shape.size() - 1;
  for (std::size_t axis = 0; axis + 2 < shape.size(); ++axis) view.outer *= shape[axis];
  if (trans_b) {  // [N, K]
    view.outer *= shape[last - 1];
    view.reduction = shape[last];
  } else {  // [K, N]
    view.reduction = shape[last - 1];
    view.inner = shape[last];
  }
  return view;
}

// The stored weight behind the operand: the operand itself, or the int8 initializer a QDQ
// model's DequantizeLinear expands (its zeros are the weight's zeros).
std::optional<ir::NodeId> stored_weight(const ir::Graph& graph, ir::NodeId operand) {
  if (graph.tensor(operand).role == ir::TensorRole::kWeight) return operand;
  const std::optional<ir::NodeId> producer = ir::producer_of(graph, operand);
  if (!producer) return std::nullopt;
  const auto* dequantize = std::get_if<ir::ElementwiseAttrs>(&graph.op(*producer).attrs);
  if (dequantize == nullptr || dequantize->fn != "dequantize") return std::nullopt;
  const std::vector<ir::NodeId> inputs = graph.inputs_of(*producer);
  if (inputs.empty() || graph.tensor(inputs.front()).role != ir::TensorRole::kWeight) {
    return std::nullopt;
  }
  return inputs.front();
}

bool has_weights(const ir::Op& op) {
  if (const auto* gemm = std::get_if<ir::GemmAttrs>(&op.attrs)) return gemm->b_shared;
  return std::holds_alternative<ir::Conv2dAttrs>(op.attrs);
}

}  // namespace

SparsityPolicy parse_sparsity_policy(const std::string& text) {
  SparsityPolicy policy;
  ir::WeightSparsity assumed;
  if (const std::size_t colon = text.find(':'); colon != std::string::npos) {
    const auto n = whole_number(std::string_view(text).substr(0, colon));
    const auto m = whole_number(std::string_view(text).substr(colon + 1));
    if (!n || !m || *n <= 0 || *n >= *m || *m > kMaxGroup) bad_policy(text);
    assumed = {static_cast<double>(*n) / static_cast<double>(*m), *n, *m};
  } else {
    double density = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), density);
    if (error != std::errc() || end != text.data() + text.size() || !(density > 0) ||
        density > 1) {
      bad_policy(text);
    }
    assumed.density = density;
  }
  policy.assumed = assumed;
  return policy;
}

ir::WeightSparsity measure_weight_sparsity(const std::vector<double>& values, int64_t outer,
                                           int64_t reduction, int64_t inner, int64_t group) {
  ir::WeightSparsity sparsity;
  if (values.empty()) return sparsity;
  int64_t nonzeros = 0;
  int64_t densest_group = 0;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      for (int64_t start = 0; start < reduction; start += group) {
        int64_t in_group = 0;
        for (int64_t r = start; r < std::min(reduction, start + group); ++r) {
          in_group += values[static_cast<std::size_t>((o * reduction + r) * inner + i)] != 0.0;
        }
        nonzeros += in_group;
        densest_group = std::max(densest_group, in_group);
      }
    }
  }
  sparsity.density = static_cast<double>(nonzeros) / static_cast<double>(values.size());
  if (densest_group < group && reduction >= group) {
    sparsity.n = densest_group;
    sparsity.m = group;
  }
  return sparsity;
}

PassStatistics SparsityPass::run(ir::Graph& graph) {
  PassStatistics statistics;
  for (const char* counter : {"measured", "assumed", "structured", "sparse"}) {
    statistics.add(counter, 0);
  }
  for (ir::NodeId op_id : graph.topological_ops()) {
    ir::Op& op = graph.op(op_id);
    const std::vector<ir::NodeId> inputs = graph.inputs_of(op_id);
    if (!has_weights(op) || inputs.size() < 2) continue;
    const std::optional<ir::NodeId> weight_id = stored_weight(graph, inputs[1]);
    if (!weight_id) continue;  // computed at run time
    const ir::Tensor& weight = graph.tensor(*weight_id);
    std::optional<ir::WeightSparsity> sparsity;
    if (const std::optional<Values> values = read_values(weight)) {
      const std::optional<WeightView> view = weight_view(op, weight.shape);
      if (!view || view->outer * view->reduction * view->inner != values->size()) continue;
      std::vector<double> reals(static_cast<std::size_t>(values->size()));
      for (std::size_t i = 0; i < reals.size(); ++i) reals[i] = values->real(i);
      sparsity = measure_weight_sparsity(reals, view->outer, view->reduction, view->inner);
      statistics.add("measured");
    } else if (policy_.assumed) {
      sparsity = policy_.assumed;
      statistics.add("assumed");
    }
    if (!sparsity || (sparsity->density >= 1.0 && !sparsity->structured())) continue;
    op.weight_sparsity = sparsity;
    statistics.add("sparse");
    if (sparsity->structured()) statistics.add("structured");
  }
  return statistics;
}

}  // namespace polyarch::passes
