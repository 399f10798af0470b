#include "compiler/lower/recurrent_expansion.h"

#include <algorithm>

#include "compiler/ir/graph_edit.h"
#include "compiler/lower/node_writer.h"
#include "compiler/passes/onnx_node.h"

namespace polyarch::lower {

namespace {

using Id = ir::NodeId;

// What every time step of one direction reads, and the state it carries.
struct Direction {
  Id w_t;                      // [input, gates * hidden]
  Id r_t;                      // [hidden, gates * hidden]
  std::optional<Id> w_bias;    // [gates * hidden]
  std::optional<Id> r_bias;    // [gates * hidden]
  std::optional<Id> peephole;  // LSTM: [3 * hidden], i, o, f
  Id h;
  std::optional<Id> c;
};

class RecurrentExpansion {
 public:
  RecurrentExpansion(ir::Graph& graph, Id op_id)
      : graph_(graph),
        op_(graph.op(op_id)),
        node_(std::get<ir::OnnxNodeAttrs>(op_.attrs)),
        writer_(graph, op_),
        operands_(passes::onnx_operands(graph, op_id)),
        results_(graph.outputs_of(op_id)) {}

  void expand();

 private:
  [[noreturn]] void fail(const std::string& message) const {
    passes::node_error(op_, node_.op_type + " " + message);
  }
  std::optional<Id> operand(std::size_t i) const {
    return i < operands_.size() ? operands_[i] : std::nullopt;
  }
  // The result in ONNX position `position` (Y, Y_h, Y_c), when the node writes it.
  std::optional<Id> result(int64_t position) const;
  Id slice(Id tensor, int64_t begin, int64_t end, int64_t axis) {
    return writer_.node("Slice", {tensor, writer_.int64_list({begin}), writer_.int64_list({end}),
                                  writer_.int64_list({axis})});
  }
  Id pick(Id tensor, int64_t index) {  // entry `index` of axis 0, that axis dropped
    return writer_.node("Gather", {tensor, writer_.int64_scalar(index)}, {{"axis", int64_t{0}}});
  }
  Id binary(const char* op_type, Id a, Id b) { return writer_.node(op_type, {a, b}); }
  Id unary(const char* op_type, Id a) { return writer_.node(op_type, {a}); }
  Id gate(Id gates, int64_t index) {
    return slice(gates, index * hidden_, (index + 1) * hidden_, 1);
  }

  void check_attributes() const;
  Direction start_direction(int64_t d);
  // One step: the new hidden (and LSTM cell) state from x_t [batch, input].
  void step(Direction& state, Id x_t, std::optional<Id> live);

  ir::Graph& graph_;
  const ir::Op op_;  // copies: writing nodes reallocates the graph's storage
  const ir::OnnxNodeAttrs node_;
  NodeWriter writer_;
  std::vector<std::optional<Id>> operands_;
  std::vector<Id> results_;
  int64_t hidden_ = 0;
  int64_t gates_ = 1;
  int64_t batch_ = 0;
  ir::DType dtype_ = ir::DType::kFp32;
};

std::optional<Id> RecurrentExpansion::result(int64_t position) const {
  std::size_t present = 0;
  for (int64_t i = 0; i < position; ++i) {
    if (std::count(node_.omitted_outputs.begin(), node_.omitted_outputs.end(), i) == 0) {
      ++present;
    }
  }
  if (std::count(node_.omitted_outputs.begin(), node_.omitted_outputs.end(), position) > 0 ||
      present >= results_.size()) {
    return std::nullopt;
  }
  return results_[present];
}

void RecurrentExpansion::check_attributes() const {
  static const std::map<std::string, std::vector<std::string>> kDefaults = {
      {"LSTM", {"Sigmoid", "Tanh", "Tanh"}}, {"GRU", {"Sigmoid", "Tanh"}}, {"RNN", {"Tanh"}}};
  const std::vector<std::string>& defaults = kDefaults.at(node_.op_type);
  const auto found = node_.attributes.find("activations");
  if (found != node_.attributes.end()) {
    const auto& given = std::get<std::vector<std::string>>(found->second);
    for (std::size_t i = 0; i < given.size(); ++i) {
      if (given[i] != defaults[i % defaults.size()]) {
        fail("with activation " + given[i] + " is not supported (only the defaults)");
      }
    }
  }
  if (node_.attributes.count("clip") > 0) fail("with clip is not supported");
  if (passes::int_attribute(node_, "input_forget", 0) != 0) {
    fail("with input_forget is not supported");
  }
  if (dtype_ != ir::DType::kFp32 && dtype_ != ir::DType::kFp64) {
    fail("in " + std::string(ir::dtype_name(dtype_)) + " is not supported (fp32 and fp64 are)");
  }
}

Direction RecurrentExpansion::start_direction(int64_t d) {
  Direction state;
  state.w_t =
      writer_.node("Transpose", {pick(*operand(1), d)}, {{"perm", std::vector<int64_t>{1, 0}}});
  state.r_t =
      writer_.node("Transpose", {pick(*operand(2), d)}, {{"perm", std::vector<int64_t>{1, 0}}});
  const int64_t width = gates_ * hidden_;
  if (operand(3)) {
    const Id bias = pick(*operand(3), d);
    state.w_bias = slice(bias, 0, width, 0);
    state.r_bias = slice(bias, width, 2 * width, 0);
  }
  if (node_.op_type == "LSTM" && operand(7)) state.peephole = pick(*operand(7), d);
  const auto initial = [&](std::size_t position) {
    if (operand(position)) {
      const Id states = *operand(position);
      if (passes::int_attribute(node_, "layout", 0) != 0) {
        return writer_.node("Gather", {states, writer_.int64_scalar(d)}, {{"axis", int64_t{1}}});
      }
      return pick(states, d);
    }
    return writer_.reals(0.0, {batch_, hidden_}, dtype_);
  };
  state.h = initial(5);
  if (node_.op_type == "LSTM") state.c = initial(6);
  return state;
}

void RecurrentExpansion::step(Direction& state, Id x_t, std::optional<Id> live) {
  Id inputs = binary("MatMul", x_t, state.w_t);
  if (state.w_bias) inputs = binary("Add", inputs, *state.w_bias);
  const Id h = state.h;
  Id h_new;
  std::optional<Id> c_new;
  if (node_.op_type == "GRU") {
    // z and r from both products; the candidate reads r * (H R_h^T + Rb_h) with
    // linear_before_reset, else (r * H) R_h^T + Rb_h.
    const Id r_zr = slice(state.r_t, 0, 2 * hidden_, 1);
    const Id r_h = slice(state.r_t, 2 * hidden_, 3 * hidden_, 1);
    Id recurrent = binary("MatMul", h, r_zr);
    if (state.r_bias) recurrent = binary("Add", recurrent, slice(*state.r_bias, 0, 2 * hidden_, 0));
    const Id z = unary("Sigmoid", binary("Add", gate(inputs, 0), gate(recurrent, 0)));
    const Id r = unary("Sigmoid", binary("Add", gate(inputs, 1), gate(recurrent, 1)));
    std::optional<Id> rb_h;
    if (state.r_bias) rb_h = slice(*state.r_bias, 2 * hidden_, 3 * hidden_, 0);
    Id candidate;
    if (passes::int_attribute(node_, "linear_before_reset", 0) != 0) {
      Id product = binary("MatMul", h, r_h);
      if (rb_h) product = binary("Add", product, *rb_h);
      candidate = binary("Add", gate(inputs, 2), binary("Mul", r, product));
    } else {
      Id product = binary("MatMul", binary("Mul", r, h), r_h);
      if (rb_h) product = binary("Add", product, *rb_h);
      candidate = binary("Add", gate(inputs, 2), product);
    }
    const Id one = writer_.reals(1.0, {}, dtype_);
    h_new = binary("Add", binary("Mul", binary("Sub", one, z), unary("Tanh", candidate)),
                   binary("Mul", z, h));
  } else {
    Id gates = binary("Add", inputs, binary("MatMul", h, state.r_t));
    if (state.r_bias) gates = binary("Add", gates, *state.r_bias);
    if (node_.op_type == "RNN") {
      h_new = unary("Tanh", gates);
    } else {
      // Gates i, o, f, c; peepholes P_i, P_o, P_f read the cell state (o the new one).
      const auto peep = [&](Id pre, int64_t index, Id cell) {
        if (!state.peephole) return pre;
        return binary(
            "Add", pre,
            binary("Mul", slice(*state.peephole, index * hidden_, (index + 1) * hidden_, 0), cell));
      };
      const Id c = *state.c;
      const Id i = unary("Sigmoid", peep(gate(gates, 0), 0, c));
      const Id f = unary("Sigmoid", peep(gate(gates, 2), 2, c));
      const Id candidate = unary("Tanh", gate(gates, 3));
      c_new = binary("Add", binary("Mul", f, c), binary("Mul", i, candidate));
      const Id o = unary("Sigmoid", peep(gate(gates, 1), 1, *c_new));
      h_new = binary("Mul", o, unary("Tanh", *c_new));
    }
  }
  // Past a sequence's length its state stays and its output is zero.
  if (live) {
    state.h = writer_.node("Where", {*live, h_new, h});
    if (c_new) state.c = writer_.node("Where", {*live, *c_new, *state.c});
  } else {
    state.h = h_new;
    if (c_new) state.c = *c_new;
  }
}

void RecurrentExpansion::expand() {
  const ir::Tensor x = graph_.tensor(*operand(0));
  dtype_ = x.dtype;
  check_attributes();
  static const std::map<std::string, int64_t> kGates = {{"LSTM", 4}, {"GRU", 3}, {"RNN", 1}};
  gates_ = kGates.at(node_.op_type);
  hidden_ = passes::int_attribute(node_, "hidden_size", 0);
  const bool batch_first = passes::int_attribute(node_, "layout", 0) != 0;
  const int64_t steps = batch_first ? x.shape[1] : x.shape[0];
  batch_ = batch_first ? x.shape[0] : x.shape[1];
  const std::string direction = passes::string_attribute(node_, "direction", "forward");
  const int64_t directions = graph_.tensor(*operand(1)).shape[0];
  if ((direction == "bidirectional") != (directions == 2) || directions < 1 || directions > 2) {
    fail("direction " + direction + " does not match W's " + std::to_string(directions) +
         " directions");
  }
  if (operand(4) && direction != "forward") {
    fail("with sequence_lens and direction " + direction + " is not supported");
  }
  const Id time_major = batch_first ? writer_.node("Transpose", {*operand(0)},
                                                   {{"perm", std::vector<int64_t>{1, 0, 2}}})
                                    : *operand(0);
  std::optional<Id> lengths;  // sequence_lens as int64, to compare with the step
  if (operand(4)) lengths = writer_.node("Cast", {*operand(4)}, {{"to", int64_t{7}}});
  std::vector<Id> outputs_per_direction, h_per_direction, c_per_direction;
  for (int64_t d = 0; d < directions; ++d) {
    Direction state = start_direction(d);
    const bool reverse = direction == "reverse" || d == 1;
    std::vector<Id> y(static_cast<std::size_t>(steps));
    for (int64_t i = 0; i < steps; ++i) {
      const int64_t t = reverse ? steps - 1 - i : i;
      std::optional<Id> live;
      if (lengths) {
        live = writer_.node("Unsqueeze", {binary("Less", writer_.int64_scalar(t), *lengths),
                                          writer_.int64_list({1})});
      }
      step(state, pick(time_major, t), live);
      Id y_t = state.h;
      if (live) y_t = writer_.node("Where", {*live, state.h, writer_.reals(0.0, {}, dtype_)});
      y[static_cast<std::size_t>(t)] = writer_.node("Unsqueeze", {y_t, writer_.int64_list({0})});
    }
    if (result(0)) {
      const Id sequence = y.size() == 1 ? y[0] : writer_.node("Concat", y, {{"axis", int64_t{0}}});
      outputs_per_direction.push_back(
          writer_.node("Unsqueeze", {sequence, writer_.int64_list({1})}));
    }
    h_per_direction.push_back(writer_.node("Unsqueeze", {state.h, writer_.int64_list({0})}));
    if (state.c)
      c_per_direction.push_back(writer_.node("Unsqueeze", {*state.c, writer_.int64_list({0})}));
  }
  // Each result: the directions stacked, in the node's layout.
  const auto write = [&](int64_t position, const std::vector<Id>& parts, int64_t axis,
                         const std::vector<int64_t>& batch_first_perm) {
    const std::optional<Id> target = result(position);
    if (!target) return;
    Id stacked = parts.size() == 1 ? parts[0] : writer_.node("Concat", parts, {{"axis", axis}});
    if (batch_first) {
      writer_.node("Transpose", {stacked}, {{"perm", batch_first_perm}}, target);
    } else {
      writer_.node("Identity", {stacked}, {}, target);
    }
  };
  write(0, outputs_per_direction, 1, {2, 0, 1, 3});
  write(1, h_per_direction, 0, {1, 0, 2});
  write(2, c_per_direction, 0, {1, 0, 2});
}

}  // namespace

void expand_recurrent_nodes(ir::Graph& graph) {
  std::vector<Id> recurrent;
  for (Id op_id : graph.topological_ops()) {
    const ir::OnnxNodeAttrs* node = passes::onnx_node(graph.op(op_id));
    if (node != nullptr && node->domain.empty() &&
        (node->op_type == "LSTM" || node->op_type == "GRU" || node->op_type == "RNN")) {
      recurrent.push_back(op_id);
    }
  }
  if (recurrent.empty()) return;
  for (Id op_id : recurrent) RecurrentExpansion(graph, op_id).expand();
  ir::GraphEdit edit(graph);
  for (Id op_id : recurrent) edit.erase_op(op_id);
  graph = edit.apply().graph;
}

}  // namespace polyarch::lower
