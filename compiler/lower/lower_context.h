#pragma once
// What a lowering rule sees of one imported node (its operands and results, shape-inferred)
// and what it returns: the canonical op's attributes and the operands the op keeps.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"
#include "compiler/passes/onnx_node.h"

namespace polyarch::lower {

using Shape = std::vector<int64_t>;

class LowerContext {
 public:
  LowerContext(const ir::Graph& graph, ir::NodeId op_id);

  const ir::Op& op() const { return op_; }
  const ir::OnnxNodeAttrs& node() const { return *node_; }
  const std::string& op_type() const { return node_->op_type; }

  bool has(std::size_t i) const { return i < operands_.size() && operands_[i].has_value(); }
  std::size_t operand_slots() const {
    return operands_.size();
  }  // ONNX positions, omitted included
  ir::NodeId operand_id(std::size_t i) const;
  const ir::Tensor& operand(std::size_t i) const { return graph_.tensor(operand_id(i)); }
  const Shape& shape(std::size_t i) const { return operand(i).shape; }
  // Every present operand, in order.
  std::vector<ir::NodeId> present_operands() const;
  std::size_t result_count() const { return results_.size(); }
  const ir::Tensor& result(std::size_t i = 0) const;
  int64_t result_elements(std::size_t i = 0) const;
  int64_t result_bytes(std::size_t i = 0) const;

  int64_t int_attr(const std::string& name, int64_t fallback) const {
    return passes::int_attribute(*node_, name, fallback);
  }
  std::vector<int64_t> ints_attr(const std::string& name,
                                 std::vector<int64_t> fallback = {}) const {
    return passes::ints_attribute(*node_, name, std::move(fallback));
  }
  [[noreturn]] void fail(const std::string& message) const {
    passes::node_error(op_, node_->op_type + " " + message);
  }

 private:
  const ir::Graph& graph_;
  const ir::Op& op_;
  const ir::OnnxNodeAttrs* node_;
  std::vector<std::optional<ir::NodeId>> operands_;
  std::vector<ir::NodeId> results_;
};

// A canonical op's attributes and the operands it reads; no attributes means the node does no
// work at all and goes (a Constant whose value lives in its tensor).
struct Lowered {
  std::optional<ir::OpAttrs> attrs;
  std::vector<ir::NodeId> inputs;
};

using LowerRule = Lowered (*)(const LowerContext&);

// The families' rules by op type; null when the family does not know the type.
LowerRule compute_lower_rule(const std::string& op_type);  // Conv, Gemm, MatMul, pools, norms
LowerRule data_lower_rule(const std::string& op_type);     // views, copies, gathers, constants
LowerRule products_lower_rule(const std::string& op_type);  // Einsum, DFT, STFT, windows

// Elementwise ops: every other supported type. Reads the full-size operands.
Lowered lower_elementwise(const LowerContext& context);

// The canonical form of one node by its family's rule (the lowering pass's step, which the
// reference interpreter also takes to run an unlowered node); a node error when none applies.
Lowered lower_onnx_node(const LowerContext& context);

// The node for the canonical op's Op::lowered_from: the imported one, plus what constant
// operands the op no longer reads held when its semantics still need it (a Slice's bounds, a
// reduction's axes).
std::shared_ptr<const ir::OnnxNodeAttrs> lowered_from(const LowerContext& context);

}  // namespace polyarch::lower
