#pragma once
// What an ONNX shape rule sees of one node: its attributes, its operands in ONNX positions and
// any constant operand's values; and what it returns, one TypedShape per result.
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"
#include "compiler/passes/onnx_node.h"

namespace polyarch::passes {

using Shape = std::vector<int64_t>;

struct TypedShape {
  Shape shape;  // empty for a scalar
  ir::DType dtype = ir::DType::kFp32;
};

// A rule returns nullopt while something it needs is not known yet (an operand's shape, or the
// value of a shape operand that constant folding has not computed).
using InferredResults = std::optional<std::vector<TypedShape>>;

class ShapeContext {
 public:
  ShapeContext(const ir::Op& op, const ir::OnnxNodeAttrs& node,
               std::vector<const ir::Tensor*> operands, std::size_t result_count)
      : op_(op), node_(node), operands_(std::move(operands)), result_count_(result_count) {}

  const ir::Op& op() const { return op_; }
  const ir::OnnxNodeAttrs& node() const { return node_; }
  std::size_t operand_count() const { return operands_.size(); }
  std::size_t result_count() const { return result_count_; }

  // Whether operand i is present (not omitted, not past the end).
  bool has(std::size_t i) const { return i < operands_.size() && operands_[i] != nullptr; }
  // Whether every present operand's shape is known.
  bool shapes_known() const;
  bool shape_known(std::size_t i) const;
  const ir::Tensor& operand(std::size_t i) const;  // node error when absent
  const Shape& shape(std::size_t i) const { return operand(i).shape; }
  int64_t rank(std::size_t i) const { return static_cast<int64_t>(shape(i).size()); }
  ir::DType dtype(std::size_t i) const { return operand(i).dtype; }
  // Integer contents of a constant operand; nullopt while it is not constant.
  std::optional<std::vector<int64_t>> int_values(std::size_t i) const;

  int64_t int_attr(const std::string& name, int64_t fallback) const {
    return int_attribute(node_, name, fallback);
  }
  std::vector<int64_t> ints_attr(const std::string& name,
                                 std::vector<int64_t> fallback = {}) const {
    return ints_attribute(node_, name, std::move(fallback));
  }
  bool has_attr(const std::string& name) const { return node_.attributes.count(name) > 0; }

  // Needs at least `count` operands; a node error otherwise.
  void require_operands(std::size_t count) const;
  [[noreturn]] void fail(const std::string& message) const {
    node_error(op_, node_.op_type + " " + message);
  }
  int64_t axis(int64_t axis, int64_t rank) const { return normalized_axis(op_, axis, rank); }

  // One result of `shape` and `dtype`, repeated for every result the node has.
  InferredResults same_for_all(const Shape& shape, ir::DType dtype) const;

 private:
  const ir::Op& op_;
  const ir::OnnxNodeAttrs& node_;
  std::vector<const ir::Tensor*> operands_;
  std::size_t result_count_;
};

// NumPy broadcasting of two shapes; nullopt when a pair of dimensions is incompatible.
std::optional<Shape> broadcast_shapes(const Shape& a, const Shape& b);

// "[1,128,768]" for messages.
std::string shape_string(const Shape& shape);

}  // namespace polyarch::passes
