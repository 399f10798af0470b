#include "compiler/interp/execute_data.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "compiler/interp/imported_call.h"
#include "compiler/interp/kernels.h"
#include "compiler/interp/kernels_data.h"
#include "compiler/passes/onnx_node.h"
#include "compiler/passes/onnx_shape_context.h"

namespace polyarch::interp {

namespace {

using Kernel = ImportedKernel;

std::vector<DenseTensor> run_gather_elements(const ImportedOpCall& call) {
  const DenseTensor& data = operand(call, 0);
  return {gather_elements(data, operand(call, 1),
                          axis_of(call, int_attr(call, "axis", 0), data.shape.size()))};
}

std::vector<DenseTensor> run_scatter_elements(const ImportedOpCall& call) {
  const DenseTensor& data = operand(call, 0);
  return {scatter_elements(data, operand(call, 1), operand(call, 2),
                           axis_of(call, int_attr(call, "axis", 0), data.shape.size()),
                           passes::string_attribute(call.node, "reduction", "none"))};
}

std::vector<DenseTensor> run_gather_nd(const ImportedOpCall& call) {
  return {gather_nd(operand(call, 0), operand(call, 1), int_attr(call, "batch_dims", 0),
                    call.results.at(0)->shape)};
}

std::vector<DenseTensor> run_scatter_nd(const ImportedOpCall& call) {
  return {scatter_nd(operand(call, 0), operand(call, 1), operand(call, 2),
                     passes::string_attribute(call.node, "reduction", "none"))};
}

std::vector<DenseTensor> run_trilu(const ImportedOpCall& call) {
  const DenseTensor* k = optional_operand(call, 1);
  const int64_t diagonal = k != nullptr && k->size() > 0 ? static_cast<int64_t>(k->values[0]) : 0;
  return {trilu(operand(call, 0), diagonal, int_attr(call, "upper", 1) != 0)};
}

std::vector<DenseTensor> run_cumsum(const ImportedOpCall& call) {
  const DenseTensor& input = operand(call, 0);
  const DenseTensor& axis = operand(call, 1);
  if (axis.size() != 1) fail(call, "axis must hold one value");
  return {cumsum(input, axis_of(call, static_cast<int64_t>(axis.values[0]), input.shape.size()),
                 int_attr(call, "exclusive", 0) != 0, int_attr(call, "reverse", 0) != 0)};
}

std::vector<DenseTensor> run_hardmax(const ImportedOpCall& call) {
  const DenseTensor& input = operand(call, 0);
  return {hardmax(input, axis_of(call, int_attr(call, "axis", -1), input.shape.size()))};
}

std::vector<DenseTensor> run_depth_to_space(const ImportedOpCall& call) {
  const std::string mode = passes::string_attribute(call.node, "mode", "DCR");
  return {depth_to_space(operand(call, 0), int_attr(call, "blocksize", 1), mode == "CRD")};
}

std::vector<DenseTensor> run_space_to_depth(const ImportedOpCall& call) {
  return {space_to_depth(operand(call, 0), int_attr(call, "blocksize", 1))};
}

std::vector<DenseTensor> run_tile(const ImportedOpCall& call) {
  const DenseTensor& input = operand(call, 0);
  const std::vector<int64_t> repeats = integers(operand(call, 1));
  if (repeats.size() != input.shape.size()) {
    fail(call, "repeats " + passes::shape_string(repeats) + " do not match the input's rank");
  }
  return as_declared(call, tile(input, repeats));
}

// Pads from the `pads` operand; from opset 18, `axes` names the axes they are for.
std::vector<DenseTensor> run_pad(const ImportedOpCall& call) {
  const DenseTensor& input = operand(call, 0);
  const std::size_t rank = input.shape.size();
  const std::vector<int64_t> given = integers(operand(call, 1));
  std::vector<int64_t> axes;
  if (const DenseTensor* named = optional_operand(call, 3)) {
    for (int64_t axis : integers(*named)) axes.push_back(axis_of(call, axis, rank));
  } else {
    for (std::size_t axis = 0; axis < rank; ++axis) axes.push_back(static_cast<int64_t>(axis));
  }
  if (given.size() != 2 * axes.size()) {
    fail(call, "pads " + passes::shape_string(given) + " do not give a begin and an end for " +
                   std::to_string(axes.size()) + " axes");
  }
  std::vector<int64_t> pads(2 * rank, 0);
  for (std::size_t i = 0; i < axes.size(); ++i) {
    pads[static_cast<std::size_t>(axes[i])] = given[i];
    pads[static_cast<std::size_t>(axes[i]) + rank] = given[i + axes.size()];
  }
  const DenseTensor* value = optional_operand(call, 2);
  const std::string mode = passes::string_attribute(call.node, "mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge") {
    fail(call, "mode '" + mode + "' is not one of constant, reflect, edge");
  }
  return as_declared(call, pad(input, pads, mode,
                               value != nullptr && value->size() > 0 ? value->values[0] : 0.0f));
}

std::vector<DenseTensor> run_one_hot(const ImportedOpCall& call) {
  const DenseTensor& indices = operand(call, 0);
  const DenseTensor& depth = operand(call, 1);
  const DenseTensor& values = operand(call, 2);
  if (depth.size() != 1 || values.size() != 2) {
    fail(call, "needs one depth and two values (off, on)");
  }
  const int64_t axis = axis_of(call, int_attr(call, "axis", -1), indices.shape.size() + 1);
  return as_declared(call, one_hot(indices, static_cast<int64_t>(depth.values[0]), axis,
                                   values.values[0], values.values[1]));
}

std::vector<DenseTensor> run_eye_like(const ImportedOpCall& call) {
  return {eye_like(operand(call, 0).shape, int_attr(call, "k", 0))};
}

// The kernel's spatial size: the kernel_shape attribute, or the weight's trailing dims.
Shape transposed_kernel(const ImportedOpCall& call, const Shape& weight) {
  return passes::ints_attribute(call.node, "kernel_shape", Shape(weight.begin() + 2, weight.end()));
}

std::vector<DenseTensor> run_conv_transpose(const ImportedOpCall& call) {
  const DenseTensor& input = operand(call, 0);
  const DenseTensor& weight = operand(call, 1);
  const std::vector<passes::TransposedAxis> axes = passes::conv_transpose_axes(
      call.op, call.node, input.shape, transposed_kernel(call, weight.shape));
  return {
      conv_transpose(input, weight, optional_operand(call, 2), int_attr(call, "group", 1), axes)};
}

// Resize from scales or sizes (operands 2 and 3; an empty one counts as absent). Opset 18's
// axes, keep_aspect_ratio_policy and antialias are refused unless they change nothing.
std::vector<DenseTensor> run_resize(const ImportedOpCall& call) {
  if (int_attr(call, "antialias", 0) != 0) fail(call, "antialias=1 is not supported");
  if (call.node.attributes.count("axes") > 0) fail(call, "with an axes attribute is not supported");
  if (passes::string_attribute(call.node, "keep_aspect_ratio_policy", "stretch") != "stretch") {
    fail(call, "keep_aspect_ratio_policy other than stretch is not supported");
  }
  const DenseTensor& input = operand(call, 0);
  const DenseTensor* scales = optional_operand(call, 2);
  const DenseTensor* sizes = optional_operand(call, 3);
  const std::size_t rank = input.shape.size();
  std::vector<double> factors;
  Shape output;
  if (sizes != nullptr && sizes->size() > 0) {
    if (static_cast<std::size_t>(sizes->size()) != rank) fail(call, "needs one size per axis");
    for (std::size_t d = 0; d < rank; ++d) {
      output.push_back(static_cast<int64_t>(sizes->values[d]));
      factors.push_back(static_cast<double>(output[d]) / static_cast<double>(input.shape[d]));
    }
  } else if (scales != nullptr && scales->size() > 0) {
    if (static_cast<std::size_t>(scales->size()) != rank) fail(call, "needs one scale per axis");
    for (std::size_t d = 0; d < rank; ++d) {
      factors.push_back(scales->values[d]);
      output.push_back(
          static_cast<int64_t>(std::floor(factors[d] * static_cast<double>(input.shape[d]))));
    }
  } else {
    fail(call, "needs scales or sizes");
  }
  std::vector<double> roi;
  if (const DenseTensor* given = optional_operand(call, 1)) {
    roi.assign(given->values.begin(), given->values.end());
  }
  ResizeOptions options;
  options.mode = passes::string_attribute(call.node, "mode", "nearest");
  options.coordinate_mode =
      passes::string_attribute(call.node, "coordinate_transformation_mode", "half_pixel");
  options.nearest_mode = passes::string_attribute(call.node, "nearest_mode", "round_prefer_floor");
  options.cubic_coeff_a = passes::float_attribute(call.node, "cubic_coeff_a", -0.75);
  options.exclude_outside = int_attr(call, "exclude_outside", 0) != 0;
  options.extrapolation_value = float_attr(call, "extrapolation_value", 0.0);
  if (options.mode != "nearest" && options.mode != "linear" && options.mode != "cubic") {
    fail(call, "mode '" + options.mode + "' is not one of nearest, linear, cubic");
  }
  if (options.coordinate_mode == "tf_crop_and_resize" && roi.size() != 2 * rank) {
    fail(call, "tf_crop_and_resize needs a roi of a start and an end per axis");
  }
  return as_declared(call, resize(input, output, factors, roi, options));
}

std::vector<DenseTensor> run_top_k(const ImportedOpCall& call) {
  const DenseTensor& input = operand(call, 0);
  const DenseTensor& k = operand(call, 1);
  if (k.size() != 1) fail(call, "K must hold one value");
  const std::vector<DenseTensor> values =
      top_k(input, axis_of(call, int_attr(call, "axis", -1), input.shape.size()),
            static_cast<int64_t>(k.values[0]), int_attr(call, "largest", 1) != 0);
  for (std::size_t i = 0; i < values.size() && i < call.results.size(); ++i) {
    if (values[i].shape != call.results[i]->shape) as_declared(call, values[i]);
  }
  return values;
}

std::vector<DenseTensor> run_compress(const ImportedOpCall& call) {
  const DenseTensor& input = operand(call, 0);
  std::optional<int64_t> axis;
  if (call.node.attributes.count("axis") > 0) {
    axis = axis_of(call, int_attr(call, "axis", 0), input.shape.size());
  }
  return as_declared(call, compress(input, operand(call, 1), axis));
}

std::vector<DenseTensor> run_non_zero(const ImportedOpCall& call) {
  return as_declared(call, non_zero(operand(call, 0)));
}

std::vector<DenseTensor> run_reverse_sequence(const ImportedOpCall& call) {
  const DenseTensor& input = operand(call, 0);
  return {reverse_sequence(input, operand(call, 1),
                           axis_of(call, int_attr(call, "batch_axis", 1), input.shape.size()),
                           axis_of(call, int_attr(call, "time_axis", 0), input.shape.size()))};
}

std::vector<DenseTensor> run_dynamic_quantize_linear(const ImportedOpCall& call) {
  return dynamic_quantize_linear(operand(call, 0));
}

std::vector<DenseTensor> run_mean_variance_normalization(const ImportedOpCall& call) {
  const DenseTensor& input = operand(call, 0);
  std::vector<int64_t> axes;
  for (int64_t axis : passes::ints_attribute(call.node, "axes", {0, 2, 3})) {
    axes.push_back(axis_of(call, axis, input.shape.size()));
  }
  return {mean_variance_normalization(input, axes)};
}

std::vector<DenseTensor> run_det(const ImportedOpCall& call) {
  return {determinant(operand(call, 0))};
}

std::vector<DenseTensor> run_lrn(const ImportedOpCall& call) {
  return {lrn(operand(call, 0), int_attr(call, "size", 1), float_attr(call, "alpha", 1e-4),
              float_attr(call, "beta", 0.75), float_attr(call, "bias", 1.0))};
}

// InstanceNormalization: each (n, c) plane normalised by its own mean and deviation, then
// scaled and shifted by channel c's scale and bias.
std::vector<DenseTensor> run_instance_norm(const ImportedOpCall& call) {
  const DenseTensor& input = operand(call, 0);
  const DenseTensor& scale = operand(call, 1);
  const DenseTensor& bias = operand(call, 2);
  const int64_t channels = input.shape[1];
  const int64_t planes = input.shape[0] * channels;
  const int64_t plane = input.size() / std::max<int64_t>(planes, 1);
  const std::vector<DenseTensor> statistics =
      layer_norm_statistics(input, plane, float_attr(call, "epsilon", 1e-5), {planes});
  DenseTensor result = input;
  for (int64_t i = 0; i < input.size(); ++i) {
    const auto at = static_cast<std::size_t>(i);
    const auto row = static_cast<std::size_t>(i / plane);
    const auto channel = static_cast<std::size_t>((i / plane) % channels);
    result.values[at] = static_cast<float>((double{input.values[at]} - statistics[0].values[row]) *
                                               statistics[1].values[row] * scale.values[channel] +
                                           bias.values[channel]);
  }
  return {result};
}

std::optional<int64_t> ignore_index(const ImportedOpCall& call) {
  if (call.node.attributes.count("ignore_index") == 0) return std::nullopt;
  return int_attr(call, "ignore_index", 0);
}

std::vector<DenseTensor> run_nll_loss(const ImportedOpCall& call) {
  return {nll_loss(operand(call, 0), operand(call, 1), optional_operand(call, 2),
                   passes::string_attribute(call.node, "reduction", "mean"), ignore_index(call))};
}

// SoftmaxCrossEntropyLoss: the NLL loss of the log-softmax over the classes (axis 1), and that
// log-softmax as the optional second result.
std::vector<DenseTensor> run_softmax_cross_entropy(const ImportedOpCall& call) {
  const DenseTensor log_prob = softmax(operand(call, 0), 1, true);
  std::vector<DenseTensor> results = {
      nll_loss(log_prob, operand(call, 1), optional_operand(call, 2),
               passes::string_attribute(call.node, "reduction", "mean"), ignore_index(call))};
  if (call.results.size() > 1) results.push_back(log_prob);
  return results;
}

const std::map<std::string, Kernel>& data_kernels() {
  static const std::map<std::string, Kernel> table = {
      {"GatherElements", run_gather_elements},
      {"ScatterElements", run_scatter_elements},
      {"GatherND", run_gather_nd},
      {"ScatterND", run_scatter_nd},
      {"Trilu", run_trilu},
      {"CumSum", run_cumsum},
      {"Hardmax", run_hardmax},
      {"DepthToSpace", run_depth_to_space},
      {"SpaceToDepth", run_space_to_depth},
      {"Tile", run_tile},
      {"Pad", run_pad},
      {"OneHot", run_one_hot},
      {"EyeLike", run_eye_like},
      {"LRN", run_lrn},
      {"TopK", run_top_k},
      {"Compress", run_compress},
      {"NonZero", run_non_zero},
      {"ReverseSequence", run_reverse_sequence},
      {"DynamicQuantizeLinear", run_dynamic_quantize_linear},
      {"MeanVarianceNormalization", run_mean_variance_normalization},
      {"Det", run_det},
      {"Resize", run_resize},
      {"InstanceNormalization", run_instance_norm},
      {"ConvTranspose", run_conv_transpose},
      {"NegativeLogLikelihoodLoss", run_nll_loss},
      {"SoftmaxCrossEntropyLoss", run_softmax_cross_entropy},
  };
  return table;
}

// The optional result `index` of the node.
DenseTensor optional_result(const ImportedOpCall& call, std::size_t index) {
  const DenseTensor& input = operand(call, 0);
  const Shape& shape = call.results.at(index)->shape;
  if (call.node.op_type == "LayerNormalization" && (index == 1 || index == 2)) {
    const int64_t cols = std::get<ir::NormAttrs>(call.op.attrs).cols;
    return layer_norm_statistics(input, cols, float_attr(call, "epsilon", 1e-5), shape)[index - 1];
  }
  if (call.node.op_type == "Dropout" && index == 1) return filled_tensor(shape, 1.0f);
  fail(call, "result " + std::to_string(index) + " is not computed by the interpreter");
}

}  // namespace

std::vector<DenseTensor> with_optional_results(const ImportedOpCall& call,
                                               std::vector<DenseTensor> values) {
  for (std::size_t index = values.size(); index < call.results.size(); ++index) {
    values.push_back(optional_result(call, index));
  }
  return values;
}

std::optional<std::vector<DenseTensor>> execute_imported_op(const ImportedOpCall& call) {
  if (!call.node.domain.empty()) return std::nullopt;
  if (call.node.op_type == "BatchNormalization") return run_training_batch_norm(call);
  if (const ImportedKernel kernel = compute_kernel(call.node.op_type)) return kernel(call);
  if (const ImportedKernel kernel = selection_kernel(call.node.op_type)) return kernel(call);
  const auto found = data_kernels().find(call.node.op_type);
  if (found == data_kernels().end()) return std::nullopt;
  return found->second(call);
}

}  // namespace polyarch::interp
