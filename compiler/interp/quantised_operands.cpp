#include "compiler/interp/quantised_operands.h"

#include <algorithm>
#include <cmath>

#include "base/error.h"

namespace polyarch::interp {

namespace {

float largest_magnitude(const std::vector<float>& values) {
  float largest = 0.0f;
  for (float value : values) largest = std::max(largest, std::fabs(value));
  return largest;
}

// round_to_fp8(x / scale) x scale for each value; `scale` 0 (all zeros) leaves zeros.
void fp8_with_scale(std::vector<float>& values, float scale, Fp8Format format) {
  for (float& value : values) {
    value = scale > 0.0f ? round_to_fp8(value / scale, format) * scale : 0.0f;
  }
}

// One group of values (copied out of its strided places) in the weight format.
std::vector<float> group_in_format(const std::vector<float>& group, ir::DType dtype) {
  const auto count = static_cast<int64_t>(group.size());
  if (dtype == ir::DType::kInt4)
    return dequantize_groups(quantize_int4(group, count, ScaleType::kFp16));
  if (dtype == ir::DType::kInt8)
    return dequantize_groups(quantize_int8(group, count, ScaleType::kFp16));
  const std::optional<Fp8Format> format = fp8_format_of(dtype);
  if (!format) {
    throw_runtime({}, "no weight format " + std::string(ir::dtype_name(dtype)));
  }
  std::vector<float> values = group;
  fp8_with_scale(values, round_to_fp16(largest_magnitude(group) / fp8_max_finite(*format)),
                 *format);
  return values;
}

}  // namespace

std::optional<Fp8Format> fp8_format_of(ir::DType dtype) {
  if (dtype == ir::DType::kFp8E4M3) return Fp8Format::kE4M3;
  if (dtype == ir::DType::kFp8E5M2) return Fp8Format::kE5M2;
  return std::nullopt;
}

DenseTensor rounded_to(const DenseTensor& tensor, ir::DType dtype) {
  DenseTensor result = tensor;
  if (dtype == ir::DType::kFp32) return result;
  if (dtype != ir::DType::kFp16 && dtype != ir::DType::kBf16) {
    throw_runtime({}, "rounding to " + std::string(ir::dtype_name(dtype)) + " needs a scale");
  }
  for (float& value : result.values) {
    value = dtype == ir::DType::kFp16 ? round_to_fp16(value) : round_to_bf16(value);
  }
  return result;
}

DenseTensor fp8_scaled(const DenseTensor& tensor, Fp8Format format) {
  DenseTensor result = tensor;
  fp8_with_scale(result.values, largest_magnitude(tensor.values) / fp8_max_finite(format), format);
  return result;
}

Fp8Tensor fp8_quantised(const DenseTensor& tensor, Fp8Format format) {
  Fp8Tensor result{tensor, largest_magnitude(tensor.values) / fp8_max_finite(format)};
  for (float& value : result.values.values) {
    value = result.scale > 0.0f ? round_to_fp8(value / result.scale, format) : 0.0f;
  }
  return result;
}

DenseTensor int8_scaled(const DenseTensor& tensor) {
  DenseTensor result = tensor;
  if (tensor.values.empty()) return result;
  result.values = dequantize_groups(
      quantize_int8(tensor.values, static_cast<int64_t>(tensor.values.size()), ScaleType::kFp32));
  return result;
}

DenseTensor weights_in_format(const DenseTensor& weights, const WeightAxes& axes,
                              const ir::WeightFormat& format) {
  if (axes.channels * axes.reduction != weights.size()) {
    throw_runtime({}, "weight format: the weights do not match their channels and reduction");
  }
  DenseTensor result = weights;
  const int64_t group = format.group > 0 ? std::min(format.group, axes.reduction) : axes.reduction;
  std::vector<float> values;
  for (int64_t channel = 0; channel < axes.channels; ++channel) {
    for (int64_t begin = 0; begin < axes.reduction; begin += group) {
      const int64_t end = std::min(begin + group, axes.reduction);
      const auto at = [&](int64_t i) {
        return static_cast<std::size_t>(channel * axes.channel_stride + i * axes.reduction_stride);
      };
      values.clear();
      for (int64_t i = begin; i < end; ++i) values.push_back(weights.values[at(i)]);
      const std::vector<float> stored = group_in_format(values, format.dtype);
      for (int64_t i = begin; i < end; ++i) result.values[at(i)] = stored[std::size_t(i - begin)];
    }
  }
  return result;
}

DenseTensor kv_in_format(const DenseTensor& cache, ir::DType kv_dtype, int64_t d) {
  if (const std::optional<Fp8Format> format = fp8_format_of(kv_dtype)) {
    return fp8_scaled(cache, *format);
  }
  if (kv_dtype == ir::DType::kFp16 || kv_dtype == ir::DType::kBf16 ||
      kv_dtype == ir::DType::kFp32) {
    return rounded_to(cache, kv_dtype);
  }
  if (kv_dtype != ir::DType::kInt4 && kv_dtype != ir::DType::kInt8) {
    throw_runtime({}, "no KV cache format " + std::string(ir::dtype_name(kv_dtype)));
  }
  if (d < 1 || cache.size() % d != 0) {
    throw_runtime({}, "KV cache: its size is not a multiple of the head size");
  }
  DenseTensor result = cache;
  result.values = dequantize_groups(kv_dtype == ir::DType::kInt4
                                        ? quantize_int4(cache.values, d, ScaleType::kFp16)
                                        : quantize_int8(cache.values, d, ScaleType::kFp16));
  return result;
}

}  // namespace polyarch::interp
