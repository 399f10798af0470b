// Lowering of ONNX compute nodes: Conv -> Conv2d, Gemm/MatMul -> Gemm, pools -> Pool,
// reductions -> Reduce, Softmax -> Softmax, LayerNormalization -> Norm.
#include <algorithm>
#include <map>
#include <optional>

#include "base/checked_math.h"
#include "compiler/lower/lower_context.h"
#include "compiler/passes/onnx_shape_context.h"
#include "compiler/passes/tensor_values.h"

namespace polyarch::lower {

namespace {

int64_t product_of(const Shape& shape, std::size_t from, std::size_t to) {
  int64_t count = 1;
  for (std::size_t i = from; i < to; ++i) count = checked_mul(count, shape[i], "element count");
  return count;
}

// Conv2dAttrs and PoolAttrs pad both sides alike. ONNX allows different begin and end pads;
// the begin pad is kept and the output size (the ops' work) is checked against the model's.
void require_output(const LowerContext& context, int64_t modelled, int64_t actual,
                    const char* axis) {
  if (modelled != actual) {
    context.fail("output " + std::string(axis) + " " + std::to_string(actual) +
                 " is not representable with symmetric padding (would be " +
                 std::to_string(modelled) + ")");
  }
}

// Padding on one side that reproduces the model's output size, for explicit and SAME pads;
// `kernel` is the input rows or columns one window spans.
int64_t symmetric_pad(const std::vector<int64_t>& pads, std::size_t axis, std::size_t axes,
                      int64_t in, int64_t kernel, int64_t stride, int64_t out) {
  if (pads.size() == 2 * axes) return pads[axis];
  const int64_t total = std::max<int64_t>(0, (out - 1) * stride + kernel - in);
  return (total + 1) / 2;
}

Lowered conv(const LowerContext& context) {
  const Shape& input = context.shape(0);
  const Shape& weight = context.shape(1);
  if (input.size() != 4) context.fail("with input " + passes::shape_string(input) + " is not 2-D");
  const Shape dilations = context.ints_attr("dilations", {1, 1});
  const Shape strides = context.ints_attr("strides", {1, 1});
  const Shape pads = context.ints_attr("pads");
  const Shape& output = context.result().shape;
  ir::Conv2dAttrs attrs;
  attrs.n = input[0];
  attrs.c = input[1];
  attrs.h = input[2];
  attrs.w = input[3];
  attrs.k = weight[0];
  attrs.r = weight[2];
  attrs.s = weight[3];
  attrs.stride_h = strides[0];
  attrs.stride_w = strides[1];
  attrs.dilation_h = dilations[0];
  attrs.dilation_w = dilations[1];
  attrs.pad_h = symmetric_pad(pads, 0, 2, attrs.h, attrs.span_h(), attrs.stride_h, output[2]);
  attrs.pad_w = symmetric_pad(pads, 1, 2, attrs.w, attrs.span_w(), attrs.stride_w, output[3]);
  attrs.groups = context.int_attr("group", 1);
  attrs.bias = context.has(2);
  require_output(context, attrs.out_h(), output[2], "height");
  require_output(context, attrs.out_w(), output[3], "width");
  return {attrs, context.present_operands()};
}

// ConvTranspose's work is a GEMM (input x weight per group) whose column results a col2im then
// sums into the output, as Caffe and ONNX Runtime compute it; no canonical op has operands and a
// result of those shapes with that work (a Gemm's result would be the column buffer), so it is
// refused by name rather than costed as something else. Shape inference and the interpreter's
// kernel know it already.
Lowered conv_transpose(const LowerContext& context) {
  context.fail(
      "has no canonical op yet: its GEMM-and-col2im work has no op whose result is the "
      "output's shape");
}

// ConvInteger multiplies integers as Conv multiplies floats; its operands past the weight are
// zero points, not a bias.
Lowered conv_integer(const LowerContext& context) {
  Lowered lowered = conv(context);
  std::get<ir::Conv2dAttrs>(*lowered.attrs).bias = false;
  return lowered;
}

Lowered gemm(const LowerContext& context) {
  const Shape& a = context.shape(0);
  const Shape& b = context.shape(1);
  // Transposed operands cost nothing here: which layout a unit reads is the layout pass's call.
  const bool trans_a = context.int_attr("transA", 0) != 0;
  const bool trans_b = context.int_attr("transB", 0) != 0;
  ir::GemmAttrs attrs;
  attrs.m = trans_a ? a[1] : a[0];
  attrs.k = trans_a ? a[0] : a[1];
  attrs.n = trans_b ? b[0] : b[1];
  attrs.bias = context.has(2);
  return {attrs, context.present_operands()};
}

// A 2-D B (a weight, typically) is shared by every row of A, so A's leading axes fold into m:
// one [m x k] x [k x n] GEMM. A batched B (attention's K^T and V) gives one GEMM per batch entry.
Lowered matmul(const LowerContext& context) {
  Shape a = context.shape(0);
  Shape b = context.shape(1);
  if (a.size() == 1) a.insert(a.begin(), 1);
  if (b.size() == 1) b.push_back(1);
  ir::GemmAttrs attrs;
  attrs.k = a.back();
  attrs.n = b.back();
  if (b.size() == 2) {
    attrs.m = product_of(a, 0, a.size() - 1);
  } else {
    const Shape& output = context.result().shape;
    const std::size_t batch_axes = output.size() - (context.shape(1).size() == 1 ? 1 : 2);
    attrs.batch = product_of(output, 0, batch_axes);
    attrs.m = a[a.size() - 2];
    attrs.b_shared = product_of(b, 0, b.size() - 2) == 1;
  }
  return {attrs, context.present_operands()};
}

// A pool the canonical Pool costs as it is: 2-D, one stride, no dilation, even padding, and an
// output size that padding both sides alike reproduces (a ceil_mode overhang included: the
// same windows of the same size). The interpreter runs the node's own geometry either way.
std::optional<ir::PoolAttrs> canonical_pool(const LowerContext& context) {
  const Shape& input = context.shape(0);
  const Shape kernel = context.ints_attr("kernel_shape");
  const Shape strides = context.ints_attr("strides", {1, 1});
  const Shape& output = context.result().shape;
  if (input.size() != 4 || kernel.size() != 2 || strides.size() != 2 || strides[0] != strides[1]) {
    return std::nullopt;
  }
  for (int64_t dilation : context.ints_attr("dilations", {1, 1})) {
    if (dilation != 1) return std::nullopt;
  }
  const Shape pads = context.ints_attr("pads");
  if (pads.size() == 4 && (pads[0] != pads[2] || pads[1] != pads[3])) return std::nullopt;
  ir::PoolAttrs attrs;
  attrs.n = input[0];
  attrs.c = input[1];
  attrs.h = input[2];
  attrs.w = input[3];
  attrs.r = kernel[0];
  attrs.s = kernel[1];
  attrs.stride = strides[0];
  attrs.pad = symmetric_pad(pads, 0, 2, attrs.h, attrs.r, attrs.stride, output[2]);
  if (symmetric_pad(pads, 1, 2, attrs.w, attrs.s, attrs.stride, output[3]) != attrs.pad ||
      attrs.out_h() != output[2] || attrs.out_w() != output[3]) {
    return std::nullopt;
  }
  attrs.kind = context.op_type() == "MaxPool" ? ir::PoolKind::kMax : ir::PoolKind::kAvg;
  return attrs;
}

// Any other pool (1-D or 3-D, dilated, padded unevenly, ceil_mode windows past the end) is
// costed as what it computes: each result element reduces its window's elements.
Lowered pool(const LowerContext& context) {
  if (std::optional<ir::PoolAttrs> attrs = canonical_pool(context)) {
    return {*attrs, {context.operand_id(0)}};
  }
  ir::ReduceAttrs attrs;
  attrs.fn = context.op_type() == "MaxPool" ? "max" : "mean";
  attrs.rows = context.result_elements();
  attrs.cols =
      product_of(context.ints_attr("kernel_shape"), 0, context.ints_attr("kernel_shape").size());
  return {attrs, {context.operand_id(0)}};
}

Lowered global_pool(const LowerContext& context) {
  const Shape& input = context.shape(0);
  ir::PoolAttrs attrs;
  attrs.n = input[0];
  attrs.c = input[1];
  attrs.h = input.size() > 2 ? input[2] : 1;
  attrs.w = product_of(input, std::min<std::size_t>(3, input.size()), input.size());
  attrs.r = attrs.h;
  attrs.s = attrs.w;
  attrs.kind = ir::PoolKind::kGlobal;
  return {attrs, {context.operand_id(0)}};
}

// Each result element reduces (input elements / result elements) inputs.
Lowered reduce(const LowerContext& context) {
  static const std::map<std::string, std::string> kFunctions = {
      {"ReduceMean", "mean"},     {"ReduceSum", "sum"},
      {"ReduceMax", "max"},       {"ReduceMin", "min"},
      {"ReduceProd", "prod"},     {"ReduceL1", "l1"},
      {"ReduceL2", "l2"},         {"ReduceSumSquare", "sumsquare"},
      {"ReduceLogSum", "logsum"}, {"ReduceLogSumExp", "logsumexp"},
      {"ArgMax", "argmax"},       {"ArgMin", "argmin"}};
  ir::ReduceAttrs attrs;
  attrs.fn = kFunctions.at(context.op_type());
  attrs.rows = context.result_elements();
  attrs.cols = ir::element_count(context.shape(0)) / std::max<int64_t>(attrs.rows, 1);
  // Axes given at run time (an operand since opset 13 for ReduceSum, 18 for the others) stay an
  // operand for the interpreter to read; constant ones lowered_from keeps as an attribute.
  if (context.has(1) && !passes::read_values(context.operand(1))) {
    return {attrs, {context.operand_id(0), context.operand_id(1)}};
  }
  return {attrs, {context.operand_id(0)}};
}

Lowered softmax(const LowerContext& context) {
  const Shape& input = context.shape(0);
  const auto axis = static_cast<std::size_t>(passes::normalized_axis(
      context.op(), context.int_attr("axis", -1), static_cast<int64_t>(input.size())));
  ir::SoftmaxAttrs attrs;
  attrs.cols = input[axis];
  attrs.rows = ir::element_count(input) / attrs.cols;
  return {attrs, {context.operand_id(0)}};
}

Lowered layer_normalization(const LowerContext& context) {
  const Shape& input = context.shape(0);
  const auto axis = static_cast<std::size_t>(passes::normalized_axis(
      context.op(), context.int_attr("axis", -1), static_cast<int64_t>(input.size())));
  ir::NormAttrs attrs;
  attrs.kind = ir::NormKind::kLayerNorm;
  attrs.rows = product_of(input, 0, axis);
  attrs.cols = product_of(input, axis, input.size());
  return {attrs, context.present_operands()};
}

// The losses read one score per target (a gather) and reduce them: one row per loss element,
// each of (targets / loss elements) gathered scores. SoftmaxCrossEntropyLoss computes the
// log-softmax of every score first, which is its work.
Lowered loss(const LowerContext& context) {
  if (context.op_type() == "SoftmaxCrossEntropyLoss") {
    const Shape& scores = context.shape(0);
    ir::SoftmaxAttrs attrs;
    attrs.cols = scores[1];
    attrs.rows = ir::element_count(scores) / std::max<int64_t>(attrs.cols, 1);
    return {attrs, context.present_operands()};
  }
  ir::ReduceAttrs attrs;
  attrs.fn = "sum";
  attrs.rows = context.result_elements();
  attrs.cols = ir::element_count(context.shape(1)) / std::max<int64_t>(attrs.rows, 1);
  return {attrs, context.present_operands()};
}

// TopK sorts each lane along its axis (a reduction of the lane to its k best); Det eliminates
// each matrix (a reduction of its n*n elements to one).
Lowered select_reduce(const LowerContext& context) {
  const Shape& input = context.shape(0);
  ir::ReduceAttrs attrs;
  if (context.op_type() == "TopK") {
    const auto axis = static_cast<std::size_t>(passes::normalized_axis(
        context.op(), context.int_attr("axis", -1), static_cast<int64_t>(input.size())));
    attrs.fn = "topk";
    attrs.cols = input[axis];
  } else {
    attrs.fn = "det";
    attrs.cols = input.empty() ? 1 : input.back() * input.back();
  }
  attrs.rows = ir::element_count(input) / std::max<int64_t>(attrs.cols, 1);
  return {attrs, context.present_operands()};
}

// InstanceNormalization normalises each (n, c) plane as LayerNorm normalises a row.
Lowered instance_normalization(const LowerContext& context) {
  const Shape& input = context.shape(0);
  ir::NormAttrs attrs;
  attrs.kind = ir::NormKind::kLayerNorm;
  attrs.rows = product_of(input, 0, std::min<std::size_t>(2, input.size()));
  attrs.cols = product_of(input, 2, input.size());
  return {attrs, context.present_operands()};
}

const std::map<std::string, LowerRule>& compute_rules() {
  static const std::map<std::string, LowerRule> table = {
      {"Conv", conv},
      {"ConvTranspose", conv_transpose},
      {"Gemm", gemm},
      {"MatMul", matmul},
      {"ConvInteger", conv_integer},
      {"MatMulInteger", matmul},  // operands past B are zero points
      {"MaxPool", pool},
      {"AveragePool", pool},
      {"GlobalAveragePool", global_pool},
      {"GlobalMaxPool", global_pool},
      {"ReduceMean", reduce},
      {"ReduceSum", reduce},
      {"ReduceMax", reduce},
      {"ReduceMin", reduce},
      {"ReduceProd", reduce},
      {"ReduceL1", reduce},
      {"ReduceL2", reduce},
      {"ReduceSumSquare", reduce},
      {"ReduceLogSum", reduce},
      {"ReduceLogSumExp", reduce},
      {"ArgMax", reduce},
      {"ArgMin", reduce},
      {"NegativeLogLikelihoodLoss", loss},
      {"SoftmaxCrossEntropyLoss", loss},
      {"Softmax", softmax},
      {"LogSoftmax", softmax},
      {"LayerNormalization", layer_normalization},
      {"InstanceNormalization", instance_normalization},
      {"TopK", select_reduce},
      {"Det", select_reduce},
  };
  return table;
}

}  // namespace

LowerRule compute_lower_rule(const std::string& op_type) {
  const auto found = compute_rules().find(op_type);
  return found == compute_rules().end() ? nullptr : found->second;
}

}  // namespace polyarch::lower
