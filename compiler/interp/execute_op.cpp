#include "compiler/interp/execute_op.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "base/error.h"
#include "compiler/interp/execute_data.h"
#include "compiler/interp/kernels.h"
#include "compiler/interp/kernels_fused.h"
#include "compiler/passes/onnx_node.h"
#include "compiler/passes/onnx_shape_context.h"
#include "compiler/passes/tensor_values.h"

namespace polyarch::interp {

namespace {

using Operands = std::vector<const DenseTensor*>;
using Results = std::vector<const ir::Tensor*>;

// What an op's kernel needs besides operands: the imported node (null for ops built directly
// as canonical ones) and the result tensors.
struct OpContext {
  const ir::Op& op;
  const Operands& operands;
  const Results& results;
  MvmEngine* mvm = nullptr;  // computes a static-weight product instead of the fp32 kernel

  const ir::OnnxNodeAttrs* node() const { return op.lowered_from.get(); }
  bool imported_as(const char* op_type) const {
    return node() != nullptr && node()->op_type == op_type;
  }
  int64_t int_attr(const std::string& name, int64_t fallback) const {
    return node() == nullptr ? fallback : passes::int_attribute(*node(), name, fallback);
  }
  float float_attr(const std::string& name, double fallback) const {
    return static_cast<float>(node() == nullptr ? fallback
                                                : passes::float_attribute(*node(), name, fallback));
  }
  const DenseTensor* optional(std::size_t i) const {
    return i < operands.size() ? operands[i] : nullptr;
  }
  const Shape& result_shape(std::size_t i = 0) const { return results.at(i)->shape; }
  int64_t axis(int64_t axis, std::size_t rank) const {
    return passes::normalized_axis(op, axis, static_cast<int64_t>(rank));
  }
  [[noreturn]] void fail(const std::string& message) const { passes::node_error(op, message); }
};

// The result with the result tensor's shape (kernels that flatten or keep axes differently).
DenseTensor shaped(DenseTensor value, const Shape& shape) {
  value.shape = shape;
  return value;
}

DenseTensor run_gemm(const OpContext& context) {
  const auto& attrs = std::get<ir::GemmAttrs>(context.op.attrs);
  if (context.imported_as("Gemm")) {
    GemmOptions options;
    options.trans_a = context.int_attr("transA", 0) != 0;
    options.trans_b = context.int_attr("transB", 0) != 0;
    options.alpha = context.float_attr("alpha", 1.0);
    options.beta = context.float_attr("beta", 1.0);
    return context.mvm != nullptr
               ? gemm_through(*context.mvm, context.op, *context.operands[0], *context.operands[1],
                              context.optional(2), options)
               : gemm(*context.operands[0], *context.operands[1], context.optional(2), options);
  }
  DenseTensor product =
      context.mvm != nullptr
          ? matmul_through(*context.mvm, context.op, *context.operands[0], *context.operands[1])
          : matmul(*context.operands[0], *context.operands[1]);
  if (attrs.bias && context.optional(2) != nullptr) {
    product = elementwise("add", {&product, context.operands[2]}, product.shape, ir::DType::kFp32,
                          nullptr);
  }
  return product;
}

DenseTensor run_pool(const OpContext& context) {
  // Imported MaxPool and AveragePool nodes run their own kernel (execute_compute.cpp); this is
  // the canonical op's, for global pools and ops built as canonical ones.
  const auto& attrs = std::get<ir::PoolAttrs>(context.op.attrs);
  return shaped(pool(*context.operands[0], attrs, context.int_attr("count_include_pad", 0) != 0,
                     context.imported_as("GlobalMaxPool")),
                context.result_shape());
}

DenseTensor run_norm(const OpContext& context) {
  const auto& attrs = std::get<ir::NormAttrs>(context.op.attrs);
  return norm(*context.operands[0], *context.operands.at(1), context.optional(2), attrs.kind,
              attrs.cols, context.float_attr("epsilon", 1e-5));
}

DenseTensor run_softmax(const OpContext& context) {
  const DenseTensor& input = *context.operands[0];
  return softmax(input, context.axis(context.int_attr("axis", -1), input.shape.size()),
                 context.imported_as("LogSoftmax"));
}

// The operands in their ONNX positions, omitted ones null: the graph lists the present ones.
Operands onnx_slots(const OpContext& context) {
  Operands slots = context.operands;
  if (context.node() != nullptr) {
    for (int64_t omitted : context.node()->omitted_inputs) {
      const auto position = static_cast<std::size_t>(omitted);
      if (position <= slots.size()) slots.insert(slots.begin() + omitted, nullptr);
    }
  }
  return slots;
}

// The axes the node names: its `axes` attribute (as the model gave it, or lowering kept from a
// constant `axes` operand) or its `axes` operand's values at run time; nullopt when it names
// none.
std::optional<std::vector<int64_t>> named_axes(const OpContext& context) {
  if (context.node() != nullptr && context.node()->attributes.count("axes") > 0) {
    return passes::ints_attribute(*context.node(), "axes");
  }
  const Operands slots = onnx_slots(context);
  if (slots.size() < 2 || slots[1] == nullptr) return std::nullopt;
  std::vector<int64_t> axes;
  for (float axis : slots[1]->values) axes.push_back(static_cast<int64_t>(axis));
  return axes;
}

// Reduced axes: those the node names (an empty list is every axis, unless
// noop_with_empty_axes makes the reduction an identity); otherwise those whose size the result
// changes (kept dimensions), or the trailing axes holding `cols` elements.
std::vector<int64_t> reduced_axes(const OpContext& context, const Shape& input) {
  std::vector<int64_t> axes;
  if (const std::optional<std::vector<int64_t>> named = named_axes(context)) {
    for (int64_t axis : *named) axes.push_back(context.axis(axis, input.size()));
    if (named->empty() && context.int_attr("noop_with_empty_axes", 0) == 0) {
      for (std::size_t axis = 0; axis < input.size(); ++axis) axes.push_back(int64_t(axis));
    }
    return axes;
  }
  const Shape& result = context.result_shape();
  if (result.size() == input.size()) {
    for (std::size_t axis = 0; axis < input.size(); ++axis) {
      if (result[axis] != input[axis]) axes.push_back(static_cast<int64_t>(axis));
    }
    return axes;
  }
  int64_t remaining = std::get<ir::ReduceAttrs>(context.op.attrs).cols;
  for (std::size_t axis = input.size(); axis-- > 0 && remaining > 1;) {
    axes.push_back(static_cast<int64_t>(axis));
    remaining /= input[axis];
  }
  return axes;
}

DenseTensor run_reduce(const OpContext& context) {
  const DenseTensor& input = *context.operands[0];
  const std::string& fn = std::get<ir::ReduceAttrs>(context.op.attrs).fn;
  if (fn == "argmax" || fn == "argmin") {
    return arg_reduce(input, context.axis(context.int_attr("axis", 0), input.shape.size()),
                      fn == "argmax", context.int_attr("select_last_index", 0) != 0,
                      context.result_shape());
  }
  return reduce(input, reduced_axes(context, input.shape),
                std::get<ir::ReduceAttrs>(context.op.attrs).fn, context.result_shape());
}

DenseTensor run_elementwise(const OpContext& context) {
  const std::string& fn = std::get<ir::ElementwiseAttrs>(context.op.attrs).fn;
  const ir::DType result_dtype = context.results[0]->dtype;
  if (fn == "cast" && result_dtype == ir::DType::kBf16) {
    // ONNX's backend tests truncate to bfloat16 while its reference implementation rounds to
    // nearest even; the operator's definition (opsets 13 to 18) says neither.
    context.fail(
        "Cast to=BFLOAT16: ONNX leaves the rounding of a cast to bfloat16 unspecified, so "
        "the interpreter does not pick one");
  }
  const Operands slots = onnx_slots(context);
  if ((fn == "div" || fn == "mod") && !passes::is_float_dtype(result_dtype)) {
    const std::vector<float>& divisors = slots.at(1)->values;
    if (std::find(divisors.begin(), divisors.end(), 0.0f) != divisors.end()) {
      context.fail((context.node() != nullptr ? context.node()->op_type : fn) +
                   " divides an integer by zero, which ONNX leaves undefined");
    }
  }
  return elementwise(fn, slots, context.result_shape(), result_dtype, context.node());
}

// Inference-mode dropout is the identity; training mode with a nonzero ratio draws a random
// mask, which no reference output can be compared with.
DenseTensor run_dropout(const OpContext& context) {
  const Operands slots = onnx_slots(context);
  const DenseTensor* ratio = slots.size() > 1 ? slots[1] : nullptr;
  const DenseTensor* training = slots.size() > 2 ? slots[2] : nullptr;
  const float ratio_value = ratio != nullptr && ratio->size() > 0 ? ratio->values[0] : 0.5f;
  if (training != nullptr && training->size() > 0 && training->values[0] != 0.0f &&
      ratio_value != 0.0f) {
    char ratio_text[32];
    std::snprintf(ratio_text, sizeof(ratio_text), "%g", ratio_value);
    context.fail("Dropout training_mode=true with ratio " + std::string(ratio_text) +
                 ": training-mode dropout draws a random mask, which the interpreter does not "
                 "reproduce (export the model for inference)");
  }
  return shaped(*context.operands[0], context.result_shape());
}

DenseTensor run_range(const OpContext& context) {
  DenseTensor result = filled_tensor(context.result_shape());
  const float start = context.operands.at(0)->values.at(0);
  const float delta = context.operands.at(2)->values.at(0);
  for (std::size_t i = 0; i < result.values.size(); ++i) {
    result.values[i] = start + static_cast<float>(i) * delta;
  }
  return result;
}

DenseTensor run_constant_of_shape(const OpContext& context) {
  float fill = 0.0f;
  if (context.node() != nullptr) {
    const auto found = context.node()->attributes.find("value");
    if (found != context.node()->attributes.end()) {
      const std::optional<passes::Values> value =
          passes::read_values(std::get<ir::Tensor>(found->second));
      if (value && value->size() > 0) fill = static_cast<float>(value->real(0));
    }
  }
  return filled_tensor(context.result_shape(), fill);
}

// One of a Slice's bounds: the attribute lowering kept from a constant operand (or an opset-1
// attribute), else the operand's values at run time; empty when neither is given.
std::vector<int64_t> slice_bound(const OpContext& context, const Operands& slots, const char* name,
                                 std::size_t slot) {
  if (context.node()->attributes.count(name) > 0) {
    return passes::ints_attribute(*context.node(), name);
  }
  std::vector<int64_t> bound;
  if (slot < slots.size() && slots[slot] != nullptr) {
    // INT64_MAX, "to the end", is 2^63 as a float: clamp before converting.
    for (float value : slots[slot]->values) {
      bound.push_back(static_cast<int64_t>(std::clamp(double{value}, -9.2e18, 9.2e18)));
    }
  }
  return bound;
}

// A Slice with constant bounds reads only its data (lowering kept them as attributes); with
// bounds given at run time it reads them as operands too.
DenseTensor run_slice(const OpContext& context) {
  const DenseTensor& input = *context.operands[0];
  if (context.node() == nullptr) context.fail("the interpreter needs a Slice's node");
  const Operands slots = onnx_slots(context);
  SliceBounds bounds;
  bounds.starts = slice_bound(context, slots, "starts", 1);
  bounds.ends = slice_bound(context, slots, "ends", 2);
  for (int64_t axis : slice_bound(context, slots, "axes", 3)) {
    bounds.axes.push_back(context.axis(axis, input.shape.size()));
  }
  for (std::size_t axis = bounds.axes.size(); axis < bounds.starts.size(); ++axis) {
    bounds.axes.push_back(static_cast<int64_t>(axis));  // axes default to 0, 1, ...
  }
  bounds.steps = slice_bound(context, slots, "steps", 4);
  bounds.steps.resize(bounds.starts.size(), 1);
  if (bounds.ends.size() != bounds.starts.size() || bounds.axes.size() != bounds.starts.size() ||
      std::count(bounds.steps.begin(), bounds.steps.end(), 0) > 0) {
    context.fail("has inconsistent bounds");
  }
  DenseTensor result = slice(input, bounds);
  if (result.shape != context.result_shape()) {
    context.fail("Slice's bounds give a result of shape " + passes::shape_string(result.shape) +
                 ", but the model declares " + passes::shape_string(context.result_shape()));
  }
  return result;
}

// Data movement: which one the imported node says (a canonical Copy without one is a view).
std::vector<DenseTensor> run_copy(const OpContext& context) {
  const DenseTensor& input = *context.operands[0];
  const std::string type = context.node() == nullptr ? "Reshape" : context.node()->op_type;
  if (type == "Transpose") {
    std::vector<int64_t> perm = context.node() != nullptr
                                    ? passes::ints_attribute(*context.node(), "perm")
                                    : std::vector<int64_t>{};
    if (perm.empty()) {
      for (std::size_t axis = input.shape.size(); axis-- > 0;) perm.push_back(int64_t(axis));
    }
    return {transpose(input, perm)};
  }
  if (type == "Concat") {
    return {
        concat(context.operands, context.axis(context.int_attr("axis", 0), input.shape.size()))};
  }
  if (type == "Split") {
    const int64_t axis = context.axis(context.int_attr("axis", 0), input.shape.size());
    std::vector<int64_t> sizes;
    for (const ir::Tensor* result : context.results) {
      sizes.push_back(result->shape[static_cast<std::size_t>(axis)]);
    }
    return split(input, axis, sizes);
  }
  if (type == "Expand") return {broadcast_to(input, context.result_shape())};
  if (type == "Slice") return {run_slice(context)};
  if (type == "Gather") {
    return {gather(input, *context.operands.at(1),
                   context.axis(context.int_attr("axis", 0), input.shape.size()))};
  }
  if (type == "Shape" || type == "Size") {
    DenseTensor result;
    result.shape = context.result_shape();
    if (type == "Size") result.values.push_back(static_cast<float>(input.size()));
    for (int64_t dim : input.shape) {
      if (type == "Shape") result.values.push_back(static_cast<float>(dim));
    }
    return {result};
  }
  if (type == "DequantizeLinear") {
    // A weight-only model's DequantizeLinear, folded into the matrix op that reads it
    // (passes/qdq_weights.h): no cost of its own, the same values.
    return {elementwise("dequantize", onnx_slots(context), context.result_shape(),
                        context.results[0]->dtype, context.node())};
  }
  if (type == "Range") return {run_range(context)};
  if (type == "ConstantOfShape") return {run_constant_of_shape(context)};
  if (type == "Dropout") return {run_dropout(context)};
  if (type == "Reshape" || type == "Flatten" || type == "Squeeze" || type == "Unsqueeze" ||
      type == "Identity") {
    return {shaped(input, context.result_shape())};
  }
  context.fail("the interpreter cannot execute a " + type +
               " copy (its lowering keeps too little to recompute it)");
}

}  // namespace

namespace {

std::vector<DenseTensor> execute_canonical_op(const ir::Op& op, const Operands& operands,
                                              const Results& results, MvmEngine* mvm) {
  const OpContext context{op, operands, results, mvm};
  // A fused activation runs on the product, as its Elementwise op did before fusion.
  if (const ir::Activation* activation = fused_activation(op)) {
    const std::vector<DenseTensor> product =
        execute_op(without_activation(op), operands, results, mvm);
    return {apply_activation(product.at(0), *activation)};
  }
  if (const ir::OnnxNodeAttrs* node = context.node()) {
    std::optional<std::vector<DenseTensor>> values =
        execute_imported_op({op, *node, onnx_slots(context), results});
    if (values) return std::move(*values);
  }
  switch (op.kind()) {
    case ir::OpKind::kAttention:
      return {execute_attention(op, operands, context.result_shape())};
    case ir::OpKind::kGemm:
      return {shaped(run_gemm(context), context.result_shape())};
    case ir::OpKind::kConv2d:
      if (mvm != nullptr) {
        return {conv2d_through(*mvm, op, *operands[0], *operands.at(1), context.optional(2),
                               std::get<ir::Conv2dAttrs>(op.attrs))};
      }
      return {conv2d(*operands[0], *operands.at(1), context.optional(2),
                     std::get<ir::Conv2dAttrs>(op.attrs))};
    case ir::OpKind::kPool:
      return {run_pool(context)};
    case ir::OpKind::kNorm:
      return {run_norm(context)};
    case ir::OpKind::kSoftmax:
      return {run_softmax(context)};
    case ir::OpKind::kReduce:
      return {run_reduce(context)};
    case ir::OpKind::kEmbedding:
      return {shaped(gather(*operands.at(0), *operands.at(1), 0), context.result_shape())};
    case ir::OpKind::kElementwise:
      return {run_elementwise(context)};
    case ir::OpKind::kCopy:
      return run_copy(context);
    default:
      context.fail("the interpreter cannot execute a " + ir::op_type_name(op) +
                   " op (lower the graph first)");
  }
}

}  // namespace

std::vector<DenseTensor> execute_op(const ir::Op& op, const Operands& operands,
                                    const Results& results, MvmEngine* mvm) {
  std::vector<DenseTensor> values = execute_canonical_op(op, operands, results, mvm);
  if (values.size() >= results.size() || op.lowered_from == nullptr) return values;
  const OpContext context{op, operands, results, mvm};
  return with_optional_results({op, *op.lowered_from, onnx_slots(context), results},
                               std::move(values));
}

}  // namespace polyarch::interp
