// Shape rules of ONNX's signal operators (opset 17): the window generators, DFT and STFT.
#include <map>

#include "compiler/frontend/onnx/element_type.h"
#include "compiler/passes/onnx_shape_rules.h"

namespace polyarch::passes {

namespace {

// A scalar size operand's value; nullopt while it is not a constant (the model's declared
// result shape stands in, and the interpreter holds the values to it).
std::optional<int64_t> scalar_operand(const ShapeContext& context, std::size_t i) {
  if (!context.has(i)) return std::nullopt;
  const auto values = context.int_values(i);
  if (!values || values->size() != 1) return std::nullopt;
  return values->front();
}

// HannWindow, HammingWindow, BlackmanWindow: [size] of output_datatype (float by default).
InferredResults window(const ShapeContext& context) {
  context.require_operands(1);
  const int32_t element_type = static_cast<int32_t>(context.int_attr("output_datatype", 1));
  const std::optional<ir::DType> dtype = frontend::onnx_import::dtype_of_element_type(element_type);
  if (!dtype) {
    context.fail("output_datatype " + frontend::onnx_import::element_type_name(element_type) +
                 " has no IR type");
  }
  const std::optional<int64_t> size = scalar_operand(context, 0);
  if (!size) return std::nullopt;
  if (*size < 0) context.fail("size " + std::to_string(*size) + " is negative");
  return context.same_for_all({*size}, *dtype);
}

// DFT: input [batch..., n, 1 or 2] (real or complex), result [..., bins, 2] along `axis`, where
// bins is dft_length (n without it), or bins / 2 + 1 when onesided.
InferredResults dft(const ShapeContext& context) {
  context.require_operands(1);
  if (!context.shape_known(0)) return std::nullopt;
  const Shape& input = context.shape(0);
  if (input.size() < 3 || (input.back() != 1 && input.back() != 2)) {
    context.fail("input " + shape_string(input) +
                 " is not [batch, ..., n, 1 or 2] (real or complex signals)");
  }
  const int64_t axis = context.axis(context.int_attr("axis", 1), context.rank(0) - 1);
  if (axis == 0) context.fail("axis 0 is the batch axis");
  int64_t bins = input[static_cast<std::size_t>(axis)];
  if (context.has(1)) {
    const std::optional<int64_t> length = scalar_operand(context, 1);
    if (!length) return std::nullopt;
    if (*length <= 0) context.fail("dft_length " + std::to_string(*length) + " is not positive");
    bins = *length;
  }
  if (context.int_attr("onesided", 0) != 0) bins = bins / 2 + 1;
  Shape output = input;
  output[static_cast<std::size_t>(axis)] = bins;
  output.back() = 2;
  return context.same_for_all(output, context.dtype(0));
}

// STFT: signal [batch, length, 1 or 2], frames of frame_length (the window's length without
// it) every frame_step, result [batch, frames, bins, 2] with bins frame_length / 2 + 1 when
// onesided (the default).
InferredResults stft(const ShapeContext& context) {
  context.require_operands(2);
  if (!context.shape_known(0)) return std::nullopt;
  const Shape& signal = context.shape(0);
  if (signal.size() != 3 || (signal.back() != 1 && signal.back() != 2)) {
    context.fail("signal " + shape_string(signal) + " is not [batch, length, 1 or 2]");
  }
  const std::optional<int64_t> step = scalar_operand(context, 1);
  std::optional<int64_t> frame = scalar_operand(context, 3);
  if (!frame && context.has(2) && context.shape_known(2) && context.shape(2).size() == 1) {
    frame = context.shape(2)[0];
  }
  if (!step || !frame) return std::nullopt;
  if (*step <= 0 || *frame <= 0 || *frame > signal[1]) {
    context.fail("frame_step " + std::to_string(*step) + " and frame_length " +
                 std::to_string(*frame) + " do not frame a signal of " + std::to_string(signal[1]));
  }
  const int64_t frames = (signal[1] - *frame) / *step + 1;
  const int64_t bins = context.int_attr("onesided", 1) != 0 ? *frame / 2 + 1 : *frame;
  return context.same_for_all({signal[0], frames, bins, 2}, context.dtype(0));
}

const std::map<std::string, ShapeRule>& signal_rules() {
  static const std::map<std::string, ShapeRule> table = {
      {"HannWindow", window}, {"HammingWindow", window}, {"BlackmanWindow", window}, {"DFT", dft},
      {"STFT", stft},
  };
  return table;
}

}  // namespace

ShapeRule signal_shape_rule(const std::string& op_type) {
  const auto found = signal_rules().find(op_type);
  return found == signal_rules().end() ? nullptr : found->second;
}

std::vector<std::string> signal_op_types() {
  std::vector<std::string> types;
  for (const auto& [type, rule] : signal_rules()) types.push_back(type);
  return types;
}

}  // namespace polyarch::passes
