#include "compiler/passes/layout.h"

#include <map>
#include <memory>

#include "base/checked_math.h"
#include "compiler/ir/graph_edit.h"

namespace polyarch::passes {

namespace {

// An activation with channels: what layout applies to. Weights keep the order they are stored
// in (a layout change there is an offline re-pack, not run-time work).
bool is_channelled_activation(const ir::Tensor& tensor) {
  return tensor.role != ir::TensorRole::kWeight && tensor.shape.size() == 4;
}

class LayoutAssignment {
 public:
  LayoutAssignment(ir::Graph& graph, ir::Layout target) : graph_(graph), target_(target) {}

  PassStatistics run() {
    PassStatistics statistics;
    for (const char* counter : {"nhwc ops", "transposes", "reused"}) statistics.add(counter, 0);
    statistics_ = &statistics;
    for (ir::NodeId op_id : graph_.topological_ops()) place(op_id);
    if (!rewired_.empty()) {
      ir::GraphEdit edit(graph_);
      for (auto& [op_id, inputs] : rewired_) edit.set_inputs(op_id, std::move(inputs));
      graph_ = edit.apply().graph;
    }
    return statistics;
  }

 private:
  ir::Layout layout_of(ir::NodeId tensor) const {
    const auto found = layout_.find(tensor);
    return found == layout_.end() ? ir::Layout::kNchw : found->second;
  }

  // The layout the op computes in: convolutions and pools take the target's; elementwise ops
  // and concatenations (SqueezeNet's fire modules join channels) follow their first channelled
  // operand, as they work in either; everything else needs the logical order.
  ir::Layout wanted(ir::NodeId op_id, const std::vector<ir::NodeId>& inputs) const {
    const ir::Op& op = graph_.op(op_id);
    const ir::OpKind kind = op.kind();
    if (kind == ir::OpKind::kConv2d || kind == ir::OpKind::kPool) return target_;
    const bool concat = kind == ir::OpKind::kCopy && op.lowered_from != nullptr &&
                        op.lowered_from->op_type == "Concat";
    if (kind == ir::OpKind::kElementwise || concat) {
      for (ir::NodeId input : inputs) {
        if (is_channelled_activation(graph_.tensor(input))) return layout_of(input);
      }
    }
    return ir::Layout::kNchw;
  }

  void place(ir::NodeId op_id) {
    if (graph_.op(op_id).kind() == ir::OpKind::kFrontend) return;
    std::vector<ir::NodeId> inputs = graph_.inputs_of(op_id);
    const ir::Layout layout = wanted(op_id, inputs);
    bool changed = false;
    // A convolution's filters (operand 1 on) are weights, whatever produced them.
    const bool activation_only = graph_.op(op_id).kind() == ir::OpKind::kConv2d;
    for (std::size_t i = 0; i < inputs.size() && !(activation_only && i > 0); ++i) {
      if (!is_channelled_activation(graph_.tensor(inputs[i])) ||
          layout_of(inputs[i]) == layout) {
        continue;
      }
      inputs[i] = converted(inputs[i], layout);
      changed = true;
    }
    if (changed) rewired_[op_id] = inputs;
    if (layout == ir::Layout::kNchw) return;
    graph_.op(op_id).layout = layout;
    statistics_->add("nhwc ops");
    for (ir::NodeId result : graph_.outputs_of(op_id)) {
      if (!is_channelled_activation(graph_.tensor(result))) continue;
      layout_[result] = layout;
      if (graph_.tensor(result).role == ir::TensorRole::kOutput) restore_output(result);
    }
  }

  // The tensor in `layout`: a transpose of it, made once and shared by every consumer.
  ir::NodeId converted(ir::NodeId tensor_id, ir::Layout layout) {
    const auto key = std::make_pair(tensor_id, layout);
    if (const auto found = conversions_.find(key); found != conversions_.end()) {
      statistics_->add("reused");
      return found->second;
    }
    ir::Tensor copy = graph_.tensor(tensor_id);
    copy.name += "@" + std::string(ir::layout_name(layout));
    copy.role = ir::TensorRole::kActivation;
    copy.data = nullptr;
    const ir::NodeId result = graph_.add_tensor(std::move(copy));
    add_transpose(tensor_id, result, layout);
    layout_[result] = layout;
    conversions_[key] = result;
    return result;
  }

  // A graph output keeps its name and its logical order: the op now writes an NHWC tensor,
  // and a transpose writes the output from it.
  void restore_output(ir::NodeId output) {
    ir::Tensor renamed = graph_.tensor(output);
    ir::Tensor original = renamed;
    renamed.name += "@" + std::string(ir::layout_name(target_));
    renamed.role = ir::TensorRole::kActivation;
    graph_.tensor(output) = std::move(renamed);
    const ir::NodeId restored = graph_.add_tensor(std::move(original));
    add_transpose(output, restored, ir::Layout::kNchw);
  }

  // A Copy moving the tensor's bytes into `layout`. Its lowered_from says Identity: the values
  // are logically the same, only their memory order changes, which the interpreter ignores.
  void add_transpose(ir::NodeId from, ir::NodeId to, ir::Layout layout) {
    const ir::Tensor& source = graph_.tensor(from);
    ir::Op transpose;
    transpose.name = source.name + ".to_" + std::string(ir::layout_name(layout));
    transpose.attrs = ir::CopyAttrs{
        ir::storage_bytes(ir::element_count(source.shape), source.dtype),
        false};
    transpose.dtype = source.dtype;
    transpose.layout = layout;
    auto identity = std::make_shared<ir::OnnxNodeAttrs>();
    identity->op_type = "Identity";
    transpose.lowered_from = std::move(identity);
    const ir::NodeId op_id = graph_.add_op(std::move(transpose));
    graph_.connect(from, op_id);
    graph_.connect(op_id, to);
    statistics_->add("transposes");
  }

  ir::Graph& graph_;
  ir::Layout target_;
  PassStatistics* statistics_ = nullptr;
  std::map<ir::NodeId, ir::Layout> layout_;
  std::map<std::pair<ir::NodeId, ir::Layout>, ir::NodeId> conversions_;
  std::map<ir::NodeId, std::vector<ir::NodeId>> rewired_;
};

}  // namespace

PassStatistics LayoutPass::run(ir::Graph& graph) {
  if (!conv_layout_ || *conv_layout_ == ir::Layout::kNchw) {
    PassStatistics statistics;
    for (const char* counter : {"nhwc ops", "transposes", "reused"}) statistics.add(counter, 0);
    return statistics;
  }
  return LayoutAssignment(graph, *conv_layout_).run();
}

}  // namespace polyarch::passes
