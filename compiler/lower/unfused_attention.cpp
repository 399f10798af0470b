#include "compiler/lower/unfused_attention.h"

#include "base/checked_math.h"
#include "base/error.h"

namespace polyarch::lower {

namespace {

ir::Op part_of(const ir::Op& attention, const std::string& suffix, ir::OpAttrs attrs) {
  ir::Op op;
  op.name = attention.name + suffix;
  op.attrs = std::move(attrs);
  op.dtype = attention.dtype;
  op.where = attention.where;
  return op;
}

}  // namespace

UnfusedAttention unfused_attention_ops(const ir::Op& attention) {
  const auto& a = std::get<ir::AttentionAttrs>(attention.attrs);
  const int64_t group = a.h / a.kv_heads;
  const int64_t batch = checked_mul(a.b, a.kv_heads, "attention batch");
  const int64_t rows = checked_mul(group, a.s, "attention query rows");
  ir::GemmAttrs scores{.m = rows, .n = a.kv_len, .k = a.d, .batch = batch, .b_shared = false};
  ir::GemmAttrs context{.m = rows, .n = a.d, .k = a.kv_len, .batch = batch, .b_shared = false};
  ir::SoftmaxAttrs softmax{.rows = checked_mul(batch, rows, "attention score rows"),
                           .cols = a.kv_len};
  return {part_of(attention, ".qk", scores), part_of(attention, ".softmax", softmax),
          part_of(attention, ".pv", context)};
}

ir::OpExpansion unfused_attention_expansion(const ir::Graph& graph, ir::NodeId attention_op) {
  const ir::Op& attention = graph.op(attention_op);
  const auto& a = std::get<ir::AttentionAttrs>(attention.attrs);
  const std::vector<ir::NodeId> inputs = graph.inputs_of(attention_op);
  const std::vector<ir::NodeId> outputs = graph.outputs_of(attention_op);
  if (inputs.size() < 3 || outputs.size() != 1) {
    throw_runtime(attention.where, "attention op '" + attention.name +
                                       "' does not read Q, K, V and write one result");
  }
  UnfusedAttention parts = unfused_attention_ops(attention);
  ir::Tensor scores;
  scores.name = attention.name + ".scores";
  scores.shape = {a.b, a.h, a.s, a.kv_len};
  scores.dtype = graph.tensor(inputs[0]).dtype;
  ir::Tensor probabilities = scores;
  probabilities.name = attention.name + ".probabilities";

  using New = ir::OpExpansion::NewTensor;
  ir::OpExpansion expansion;
  expansion.tensors = {scores, probabilities};
  std::vector<ir::OpExpansion::Operand> softmax_inputs = {New{0}};
  for (std::size_t extra = 3; extra < inputs.size(); ++extra) softmax_inputs.push_back(inputs[extra]);
  expansion.steps = {
      {std::move(parts.scores), {inputs[0], inputs[1]}, {New{0}}},
      {std::move(parts.softmax), std::move(softmax_inputs), {New{1}}},
      {std::move(parts.context), {New{1}, inputs[2]}, {outputs[0]}},
  };
  return expansion;
}

}  // namespace polyarch::lower
