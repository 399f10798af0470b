// Lowering of Einsum, the signal operators and the value-dependent selections, each to the
// canonical op that does its work: an Einsum that is a (batched) matrix product to a Gemm, one
// that sums axes to a Reduce, one that only rearranges (a transpose, a diagonal) to a Copy; a
// DFT or STFT, computed directly, to a Reduce of each result value over the samples it sums; a
// window generator to an Elementwise function of each element; NonMaxSuppression and Unique to
// a Reduce of their comparisons; GridSample to a Reduce of each output over the pixels it
// interpolates; MaxUnpool to a Copy of its result.
#include <map>

#include "base/checked_math.h"
#include "compiler/lower/lower_context.h"
#include "compiler/passes/einsum_equation.h"
#include "compiler/passes/tensor_values.h"

namespace polyarch::lower {

namespace {

int64_t extents_of(const passes::EinsumEquation& equation, const std::string& labels) {
  int64_t product = 1;
  for (char label : labels) {
    product = checked_mul(product, equation.extents.at(label), "einsum extent");
  }
  return product;
}

bool has(const std::string& labels, char label) { return labels.find(label) != std::string::npos; }

bool repeats_a_label(const std::string& labels) {
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (labels.find(labels[i], i + 1) != std::string::npos) return true;
  }
  return false;
}

// Two operands: each label is a batch axis (both operands and the result), a row of A (A and
// the result), a column of B (B and the result) or the contracted axis (both operands only).
Lowered einsum_product(const LowerContext& context, const passes::EinsumEquation& equation) {
  const std::string& a = equation.operands[0];
  const std::string& b = equation.operands[1];
  const std::string& result = equation.result;
  std::string batch, rows, columns, contracted;
  for (const auto& [label, extent] : equation.extents) {
    if (has(a, label) && has(b, label)) {
      (has(result, label) ? batch : contracted) += label;
    } else if (has(a, label) && has(result, label)) {
      rows += label;
    } else if (has(b, label) && has(result, label)) {
      columns += label;
    } else {
      context.fail("equation sums label '" + std::string(1, label) +
                   "' within one operand: it is no matrix product, and has no canonical op");
    }
  }
  if (repeats_a_label(a) || repeats_a_label(b)) {
    context.fail(
        "equation takes a diagonal of an operand: it is no matrix product, and has no "
        "canonical op");
  }
  ir::GemmAttrs attrs;
  attrs.batch = extents_of(equation, batch);
  attrs.m = extents_of(equation, rows);
  attrs.n = extents_of(equation, columns);
  attrs.k = extents_of(equation, contracted);
  attrs.b_shared = batch.empty();
  return {attrs, context.present_operands()};
}

Lowered einsum(const LowerContext& context) {
  std::vector<Shape> shapes;
  for (std::size_t i = 0; i < context.operand_slots(); ++i) shapes.push_back(context.shape(i));
  const passes::EinsumEquation equation = passes::parse_einsum(
      context.op(), passes::string_attribute(context.node(), "equation", ""), shapes);
  if (shapes.size() == 2) return einsum_product(context, equation);
  if (shapes.size() != 1) {
    context.fail("of " + std::to_string(shapes.size()) +
                 " operands has no canonical op (one or two operands have)");
  }
  if (equation.summed().empty()) {
    ir::CopyAttrs attrs;
    attrs.bytes = context.result_bytes();
    return {attrs, {context.operand_id(0)}};
  }
  ir::ReduceAttrs attrs;
  attrs.fn = "sum";
  attrs.rows = context.result_elements();
  attrs.cols = extents_of(equation, equation.summed());
  return {attrs, {context.operand_id(0)}};
}

// The samples an STFT frame holds: its frame_length operand, else its window's length; when
// the length is given at run time only, the bins say it (bins = length / 2 + 1 onesided, which
// leaves an odd length one short).
int64_t stft_frame_length(const LowerContext& context) {
  if (context.has(3)) {
    const std::optional<passes::Values> length = passes::read_values(context.operand(3));
    if (length && length->size() == 1) return length->integer(0);
  }
  if (context.has(2) && context.shape(2).size() == 1) return context.shape(2)[0];
  const int64_t bins = context.result().shape[2];
  return context.int_attr("onesided", 1) != 0 ? 2 * (bins - 1) : bins;
}

// Each of the result's values (a real or an imaginary part of one bin) sums the products of
// the samples it transforms: a DFT's signal length, or an STFT's frame length.
Lowered fourier(const LowerContext& context) {
  const Shape& signal = context.shape(0);
  ir::ReduceAttrs attrs;
  attrs.fn = "dft";
  attrs.rows = context.result_elements();
  if (context.op_type() == "STFT") {
    attrs.cols = checked_mul(stft_frame_length(context), signal.back(), "stft samples");
  } else {
    const auto axis = static_cast<std::size_t>(passes::normalized_axis(
        context.op(), context.int_attr("axis", 1), static_cast<int64_t>(signal.size()) - 1));
    attrs.cols = checked_mul(signal[axis], signal.back(), "dft samples");
  }
  return {attrs, context.present_operands()};
}

// NonMaxSuppression compares each scored box with the boxes of its class (a reduction of each
// to whether it survives); Unique looks each element up once among the distinct ones (ONNX
// Runtime keeps them in a hash map).
Lowered compare_all(const LowerContext& context) {
  const Shape& input = context.shape(context.op_type() == "NonMaxSuppression" ? 1 : 0);
  ir::ReduceAttrs attrs;
  attrs.fn = context.op_type() == "NonMaxSuppression" ? "nms" : "unique";
  attrs.rows = ir::element_count(input);
  attrs.cols = context.op_type() == "NonMaxSuppression" ? input.back() : 1;
  return {attrs, context.present_operands()};
}

// MaxUnpool writes its result: zeros and the scattered values.
Lowered unpool(const LowerContext& context) {
  ir::CopyAttrs attrs;
  attrs.bytes = context.result_bytes();
  return {attrs, context.present_operands()};
}

// GridSample weighs the input pixels around each sample: 1 (nearest), 4 (bilinear) or 16
// (bicubic) per output element.
Lowered grid_sample(const LowerContext& context) {
  const std::string mode = passes::string_attribute(context.node(), "mode", "bilinear");
  ir::ReduceAttrs attrs;
  attrs.fn = "gridsample";
  attrs.rows = context.result_elements();
  attrs.cols = mode == "nearest" ? 1 : (mode == "bilinear" || mode == "linear") ? 4 : 16;
  return {attrs, context.present_operands()};
}

// One cosine series per element.
Lowered window(const LowerContext& context) {
  ir::ElementwiseAttrs attrs;
  attrs.fn = "window";
  attrs.elements = context.result_elements();
  return {attrs, context.present_operands()};
}

const std::map<std::string, LowerRule>& products_rules() {
  static const std::map<std::string, LowerRule> table = {
      {"Einsum", einsum},          {"DFT", fourier},
      {"STFT", fourier},           {"NonMaxSuppression", compare_all},
      {"Unique", compare_all},     {"MaxUnpool", unpool},
      {"GridSample", grid_sample}, {"HannWindow", window},
      {"HammingWindow", window},   {"BlackmanWindow", window},
  };
  return table;
}

}  // namespace

LowerRule products_lower_rule(const std::string& op_type) {
  const auto found = products_rules().find(op_type);
  return found == products_rules().end() ? nullptr : found->second;
}

}  // namespace polyarch::lower
