// The kernels of imported compute operators whose canonical op (a Pool, a Reduce or a Gemm
// costed like them) does not say all they compute: the node's attributes do.
#include <algorithm>
#include <cmath>
#include <map>

#include "compiler/interp/imported_call.h"
#include "compiler/interp/kernels.h"
#include "compiler/interp/kernels_data.h"
#include "compiler/interp/kernels_pool.h"
#include "compiler/interp/kernels_products.h"
#include "compiler/passes/einsum_equation.h"
#include "compiler/passes/onnx_node.h"

namespace polyarch::interp {

namespace {

// ONNX's pool geometry: explicit pads, or SAME_UPPER / SAME_LOWER padding that gives each axis
// ceil(in / stride) outputs (the odd pad at the end, or at the beginning), or VALID none.
PoolWindow pool_window(const ImportedOpCall& call, const Shape& input, const Shape& output) {
  PoolWindow window;
  const std::size_t spatial = input.size() - 2;
  window.kernel = passes::ints_attribute(call.node, "kernel_shape");
  window.strides = passes::ints_attribute(call.node, "strides", Shape(spatial, 1));
  window.dilations = passes::ints_attribute(call.node, "dilations", Shape(spatial, 1));
  const Shape pads = passes::ints_attribute(call.node, "pads", Shape(2 * spatial, 0));
  const std::string auto_pad = passes::string_attribute(call.node, "auto_pad", "NOTSET");
  if (window.kernel.size() != spatial || window.strides.size() != spatial ||
      window.dilations.size() != spatial || pads.size() != 2 * spatial) {
    fail(call, "attributes do not match the input's " + std::to_string(spatial) + " spatial axes");
  }
  for (std::size_t axis = 0; axis < spatial; ++axis) {
    int64_t begin = auto_pad == "NOTSET" ? pads[axis] : 0;
    int64_t end = auto_pad == "NOTSET" ? pads[axis + spatial] : 0;
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      const int64_t span = (window.kernel[axis] - 1) * window.dilations[axis] + 1;
      const int64_t total = std::max<int64_t>(
          0, (output[axis + 2] - 1) * window.strides[axis] + span - input[axis + 2]);
      begin = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      end = total - begin;
    }
    window.pad_begin.push_back(begin);
    window.pad_end.push_back(end);
  }
  return window;
}

std::vector<DenseTensor> run_window_pool(const ImportedOpCall& call) {
  const DenseTensor& input = operand(call, 0);
  const Shape& output = call.results.at(0)->shape;
  PoolOptions options;
  options.take_max = call.node.op_type == "MaxPool";
  options.count_include_pad = int_attr(call, "count_include_pad", 0) != 0;
  options.with_indices = call.results.size() > 1;
  options.column_major_indices = int_attr(call, "storage_order", 0) != 0;
  std::vector<DenseTensor> results =
      window_pool(input, output, pool_window(call, input.shape, output), options);
  if (results.empty()) fail(call, "has a window that covers only padding");
  return results;
}

std::vector<DenseTensor> run_einsum(const ImportedOpCall& call) {
  std::vector<std::vector<int64_t>> shapes;
  std::vector<const DenseTensor*> operands;
  for (std::size_t i = 0; i < call.slots.size(); ++i) {
    operands.push_back(&operand(call, i));
    shapes.push_back(operands.back()->shape);
  }
  const passes::EinsumEquation equation =
      passes::parse_einsum(call.op, passes::string_attribute(call.node, "equation", ""), shapes);
  return {einsum(operands, equation)};
}

// A scalar operand's integer value (a size, a length, a step).
int64_t scalar_of(const ImportedOpCall& call, std::size_t i) {
  const DenseTensor& value = operand(call, i);
  if (value.size() != 1) fail(call, "operand " + std::to_string(i) + " is not a scalar");
  return static_cast<int64_t>(value.values[0]);
}

std::vector<DenseTensor> run_dft(const ImportedOpCall& call) {
  const DenseTensor& input = operand(call, 0);
  const int64_t axis = axis_of(call, int_attr(call, "axis", 1), input.shape.size() - 1);
  const auto axis_index = static_cast<std::size_t>(axis);
  const int64_t length =
      optional_operand(call, 1) != nullptr ? scalar_of(call, 1) : input.shape[axis_index];
  const Shape& declared = call.results.at(0)->shape;
  return as_declared(
      call, dft(input, axis, length, declared[axis_index], int_attr(call, "inverse", 0) != 0));
}

std::vector<DenseTensor> run_stft(const ImportedOpCall& call) {
  const DenseTensor& signal = operand(call, 0);
  const DenseTensor* window = optional_operand(call, 2);
  const int64_t frame_length = optional_operand(call, 3) != nullptr ? scalar_of(call, 3)
                               : window != nullptr                  ? window->size()
                                                                    : 0;
  const int64_t step = scalar_of(call, 1);
  if (frame_length <= 0 || step <= 0 || frame_length > signal.shape[1] ||
      (window != nullptr && window->size() != frame_length)) {
    fail(call, "frame_step, window and frame_length do not frame the signal");
  }
  const int64_t bins = int_attr(call, "onesided", 1) != 0 ? frame_length / 2 + 1 : frame_length;
  return as_declared(call, stft(signal, step, window, frame_length, bins));
}

std::vector<DenseTensor> run_window(const ImportedOpCall& call) {
  static const std::map<std::string, std::string> kKinds = {
      {"HannWindow", "hann"}, {"HammingWindow", "hamming"}, {"BlackmanWindow", "blackman"}};
  const int64_t size = scalar_of(call, 0);
  if (size < 0) fail(call, "size " + std::to_string(size) + " is negative");
  DenseTensor window =
      cosine_window(kKinds.at(call.node.op_type), size, int_attr(call, "periodic", 1) != 0);
  window.dtype = call.results.at(0)->dtype;
  return as_declared(call, std::move(window));
}

// `tensor` less its zero point: a scalar, or one per entry of axis `axis` (a row of A, an
// output channel of a convolution's weight).
DenseTensor less_zero_point(const DenseTensor& tensor, const DenseTensor* zero_point,
                            std::size_t axis) {
  DenseTensor shifted = tensor;
  shifted.dtype = ir::DType::kInt32;
  if (zero_point == nullptr) return shifted;
  const int64_t inner = extent(tensor.shape, axis + 1, tensor.shape.size());
  for (std::size_t i = 0; i < shifted.values.size(); ++i) {
    const std::size_t entry =
        zero_point->size() == 1
            ? 0
            : static_cast<std::size_t>((static_cast<int64_t>(i) / inner) % tensor.shape[axis]);
    shifted.values[i] -= zero_point->values.at(entry);
  }
  return shifted;
}

float largest_magnitude(const DenseTensor& tensor) {
  float largest = 0.0f;
  for (float value : tensor.values) largest = std::max(largest, std::fabs(value));
  return largest;
}

// The products run in fp32, whose integers are exact up to 2^24: a sum of `terms` products
// that could pass it is refused rather than rounded.
void require_exact_sums(const ImportedOpCall& call, const DenseTensor& a, const DenseTensor& b,
                        int64_t terms) {
  const double bound = double{largest_magnitude(a)} * largest_magnitude(b) * double(terms);
  if (bound >= 16777216.0) {
    fail(call, "could sum integers past 2^24 (" + std::to_string(terms) +
                   " products), which the interpreter's fp32 arithmetic would round");
  }
}

std::vector<DenseTensor> run_matmul_integer(const ImportedOpCall& call) {
  const DenseTensor& a = operand(call, 0);
  const DenseTensor a_shifted =
      less_zero_point(a, optional_operand(call, 2), a.shape.size() >= 2 ? a.shape.size() - 2 : 0);
  const DenseTensor& b = operand(call, 1);
  const DenseTensor b_shifted = less_zero_point(b, optional_operand(call, 3), b.shape.size() - 1);
  require_exact_sums(call, a_shifted, b_shifted, a.shape.back());
  DenseTensor product = matmul(a_shifted, b_shifted);
  product.dtype = ir::DType::kInt32;
  return {product};
}

std::vector<DenseTensor> run_conv_integer(const ImportedOpCall& call) {
  const auto& attrs = std::get<ir::Conv2dAttrs>(call.op.attrs);
  const DenseTensor x = less_zero_point(operand(call, 0), optional_operand(call, 2), 0);
  const DenseTensor w = less_zero_point(operand(call, 1), optional_operand(call, 3), 0);
  require_exact_sums(call, x, w, attrs.c / attrs.groups * attrs.r * attrs.s);
  DenseTensor product = conv2d(x, w, nullptr, attrs);
  product.dtype = ir::DType::kInt32;
  return {product};
}

std::vector<DenseTensor> run_grid_sample(const ImportedOpCall& call) {
  const DenseTensor& input = operand(call, 0);
  const DenseTensor& grid = operand(call, 1);
  GridSampleOptions options;
  options.mode = passes::string_attribute(call.node, "mode", "bilinear");
  // Opset 20 renamed the modes for N-d sampling; on a 4-D input they are the same kernels.
  if (options.mode == "linear") options.mode = "bilinear";
  if (options.mode == "cubic") options.mode = "bicubic";
  options.padding_mode = passes::string_attribute(call.node, "padding_mode", "zeros");
  options.align_corners = int_attr(call, "align_corners", 0) != 0;
  if (options.mode != "nearest" && options.mode != "bilinear" && options.mode != "bicubic") {
    fail(call, "mode '" + options.mode + "' is not nearest, bilinear or bicubic");
  }
  if (options.padding_mode != "zeros" && options.padding_mode != "border" &&
      options.padding_mode != "reflection") {
    fail(call, "padding_mode '" + options.padding_mode + "' is not zeros, border or reflection");
  }
  return {grid_sample(input, grid, options)};
}

const std::map<std::string, ImportedKernel>& compute_kernels() {
  static const std::map<std::string, ImportedKernel> table = {
      {"MaxPool", run_window_pool},
      {"AveragePool", run_window_pool},
      {"Einsum", run_einsum},
      {"DFT", run_dft},
      {"STFT", run_stft},
      {"HannWindow", run_window},
      {"HammingWindow", run_window},
      {"BlackmanWindow", run_window},
      {"MatMulInteger", run_matmul_integer},
      {"ConvInteger", run_conv_integer},
      {"GridSample", run_grid_sample},
  };
  return table;
}

}  // namespace

// BatchNormalization in training mode normalises by the batch's statistics and returns the
// updated running ones; in inference mode it is the elementwise function its canonical op runs.
std::optional<std::vector<DenseTensor>> run_training_batch_norm(const ImportedOpCall& call) {
  if (int_attr(call, "training_mode", 0) == 0) return std::nullopt;
  std::vector<DenseTensor> results = batch_norm_training(
      operand(call, 0), operand(call, 1), operand(call, 2), operand(call, 3), operand(call, 4),
      float_attr(call, "epsilon", 1e-5), float_attr(call, "momentum", 0.9));
  results.resize(call.results.size());
  return results;
}

ImportedKernel compute_kernel(const std::string& op_type) {
  const auto found = compute_kernels().find(op_type);
  return found == compute_kernels().end() ? nullptr : found->second;
}

}  // namespace polyarch::interp
