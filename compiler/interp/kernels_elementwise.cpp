// Elementwise functions with NumPy broadcasting, as ONNX defines each operator.
#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>

#include "base/error.h"
#include "compiler/interp/kernels.h"
#include "compiler/interp/narrow_formats.h"
#include "compiler/interp/quantised_operands.h"
#include "compiler/passes/onnx_node.h"

namespace polyarch::interp {

namespace {

// One result element from the operands' elements at the same position.
using ElementFunction = std::function<float(const std::vector<float>&)>;

float attribute(const ir::OnnxNodeAttrs* attributes, const std::string& name, double fallback) {
  return static_cast<float>(
      attributes == nullptr ? fallback : passes::float_attribute(*attributes, name, fallback));
}

// Rounds and saturates to an integer type's range (Cast truncates, QuantizeLinear rounds half
// to even: std::nearbyint in the default rounding mode).
float saturate(double value, ir::DType dtype) {
  switch (dtype) {
    case ir::DType::kUint8:
      return static_cast<float>(std::clamp(value, 0.0, 255.0));
    case ir::DType::kInt8:
      return static_cast<float>(std::clamp(value, -128.0, 127.0));
    case ir::DType::kInt4:
      return static_cast<float>(std::clamp(value, -8.0, 7.0));
    default:
      return static_cast<float>(value);
  }
}

bool is_integer_dtype(ir::DType dtype) { return !ir::is_float(dtype); }

// Cast and QuantizeLinear to a float8 type saturate by default; `saturate` 0 (opset 19) keeps
// the format's own overflow.
Fp8Overflow fp8_overflow(const ir::OnnxNodeAttrs* attributes) {
  const int64_t saturate =
      attributes == nullptr ? 1 : passes::int_attribute(*attributes, "saturate", 1);
  return saturate != 0 ? Fp8Overflow::kSaturate : Fp8Overflow::kOverflow;
}

const std::map<std::string, std::function<float(float)>>& unary_functions() {
  static const std::map<std::string, std::function<float(float)>> table = {
      {"relu", [](float x) { return std::max(x, 0.0f); }},
      {"sigmoid", [](float x) { return 1.0f / (1.0f + std::exp(-x)); }},
      {"tanh", [](float x) { return std::tanh(x); }},
      {"erf", [](float x) { return std::erf(x); }},
      {"exp", [](float x) { return std::exp(x); }},
      {"log", [](float x) { return std::log(x); }},
      {"sqrt", [](float x) { return std::sqrt(x); }},
      {"reciprocal", [](float x) { return 1.0f / x; }},
      {"neg", [](float x) { return -x; }},
      {"abs", [](float x) { return std::fabs(x); }},
      {"floor", [](float x) { return std::floor(x); }},
      {"ceil", [](float x) { return std::ceil(x); }},
      {"not", [](float x) { return x == 0.0f ? 1.0f : 0.0f; }},
      {"isnan", [](float x) { return std::isnan(x) ? 1.0f : 0.0f; }},
      {"identity", [](float x) { return x; }},
      {"dropout", [](float x) { return x; }},
      {"hardswish", [](float x) { return x * std::clamp(x / 6.0f + 0.5f, 0.0f, 1.0f); }},
  };
  return table;
}

// Functions of one real computed in double and rounded once to fp32, so that the result is the
// nearest fp32 value to the operator's formula (ONNX's reference computes these in NumPy).
double softplus(double x) { return std::log1p(std::exp(x)); }

const std::map<std::string, double (*)(double)>& unary_real_functions() {
  static const std::map<std::string, double (*)(double)> table = {
      {"sin", [](double x) { return std::sin(x); }},
      {"cos", [](double x) { return std::cos(x); }},
      {"tan", [](double x) { return std::tan(x); }},
      {"asin", [](double x) { return std::asin(x); }},
      {"acos", [](double x) { return std::acos(x); }},
      {"atan", [](double x) { return std::atan(x); }},
      {"sinh", [](double x) { return std::sinh(x); }},
      {"cosh", [](double x) { return std::cosh(x); }},
      {"asinh", [](double x) { return std::asinh(x); }},
      {"acosh", [](double x) { return std::acosh(x); }},
      {"atanh", [](double x) { return std::atanh(x); }},
      {"sign", [](double x) { return x > 0   ? 1.0
                                     : x < 0 ? -1.0
                                             : x; }},
      // Round: halves to the even neighbour (ONNX Round, NumPy's round); nearbyint in the
      // default rounding mode does that.
      {"round", [](double x) { return std::nearbyint(x); }},
      {"softplus", softplus},
      {"softsign", [](double x) { return x / (1.0 + std::fabs(x)); }},
      {"mish", [](double x) { return x * std::tanh(softplus(x)); }},
  };
  return table;
}

const std::map<std::string, std::function<float(float, float)>>& binary_functions() {
  static const std::map<std::string, std::function<float(float, float)>> table = {
      {"add", std::plus<float>()},
      {"sub", std::minus<float>()},
      {"mul", std::multiplies<float>()},
      {"pow", [](float x, float y) { return std::pow(x, y); }},
      {"equal", [](float x, float y) { return x == y ? 1.0f : 0.0f; }},
      {"less", [](float x, float y) { return x < y ? 1.0f : 0.0f; }},
      {"greater", [](float x, float y) { return x > y ? 1.0f : 0.0f; }},
      {"lessorequal", [](float x, float y) { return x <= y ? 1.0f : 0.0f; }},
      {"greaterorequal", [](float x, float y) { return x >= y ? 1.0f : 0.0f; }},
      {"and", [](float x, float y) { return x != 0.0f && y != 0.0f ? 1.0f : 0.0f; }},
      {"or", [](float x, float y) { return x != 0.0f || y != 0.0f ? 1.0f : 0.0f; }},
      {"xor", [](float x, float y) { return (x != 0.0f) != (y != 0.0f) ? 1.0f : 0.0f; }},
  };
  return table;
}

// Functions that read attributes, several operands or the result type.
ElementFunction special_function(const std::string& fn, const ir::OnnxNodeAttrs* attributes,
                                 ir::DType result_dtype) {
  if (fn == "leakyrelu") {
    const float alpha = attribute(attributes, "alpha", 0.01);
    return [alpha](const std::vector<float>& v) { return v[0] < 0 ? alpha * v[0] : v[0]; };
  }
  if (fn == "elu" || fn == "celu") {
    // Elu: alpha(e^x - 1) below 0; Celu: max(0, x) + min(0, alpha(e^(x/alpha) - 1)).
    const double alpha = attribute(attributes, "alpha", 1.0);
    const double scale = fn == "celu" ? alpha : 1.0;
    return [=](const std::vector<float>& v) {
      const double x = v[0];
      return static_cast<float>(x < 0 ? alpha * std::expm1(x / scale) : x);
    };
  }
  if (fn == "selu") {  // ONNX's defaults: the constants of Klambauer et al. (2017) as fp32
    const double alpha = attribute(attributes, "alpha", 1.67326319217681884765625);
    const double gamma = attribute(attributes, "gamma", 1.05070102214813232421875);
    return [=](const std::vector<float>& v) {
      const double x = v[0];
      return static_cast<float>(gamma * (x <= 0 ? alpha * std::exp(x) - alpha : x));
    };
  }
  if (fn == "thresholdedrelu") {
    const float alpha = attribute(attributes, "alpha", 1.0);
    return [alpha](const std::vector<float>& v) { return v[0] > alpha ? v[0] : 0.0f; };
  }
  if (fn == "shrink") {
    const float bias = attribute(attributes, "bias", 0.0);
    const float lambd = attribute(attributes, "lambd", 0.5);
    return [=](const std::vector<float>& v) {
      return v[0] < -lambd ? v[0] + bias : v[0] > lambd ? v[0] - bias : 0.0f;
    };
  }
  if (fn == "bitshift") {
    // Unsigned shifts of the result type's width: bits shifted past it are lost (so a left
    // shift wraps modulo 2^bits), and a shift by the width or more gives 0.
    const bool left =
        attributes != nullptr && passes::string_attribute(*attributes, "direction", "") == "LEFT";
    const int64_t bits = ir::dtype_bits(result_dtype);
    return [=](const std::vector<float>& v) {
      const auto value = static_cast<uint64_t>(v[0]);
      const auto shift = static_cast<uint64_t>(v[1]);
      if (shift >= static_cast<uint64_t>(bits)) return 0.0f;
      const uint64_t mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
      return static_cast<float>((left ? value << shift : value >> shift) & mask);
    };
  }
  if (fn == "prelu") {
    return [](const std::vector<float>& v) { return v[0] < 0 ? v[1] * v[0] : v[0]; };
  }
  if (fn == "mean") {
    return [](const std::vector<float>& v) {
      double total = 0;
      for (float value : v) total += value;
      return static_cast<float>(total / static_cast<double>(v.size()));
    };
  }
  if (fn == "isinf") {
    const auto detects = [attributes](const char* name) {
      return attributes == nullptr || passes::int_attribute(*attributes, name, 1) != 0;
    };
    const bool negative = detects("detect_negative");
    const bool positive = detects("detect_positive");
    return [=](const std::vector<float>& v) {
      return std::isinf(v[0]) && (v[0] > 0 ? positive : negative) ? 1.0f : 0.0f;
    };
  }
  if (fn == "hardsigmoid") {
    const float alpha = attribute(attributes, "alpha", 0.2);
    const float beta = attribute(attributes, "beta", 0.5);
    return [=](const std::vector<float>& v) { return std::clamp(alpha * v[0] + beta, 0.f, 1.f); };
  }
  if (fn == "gelu" && attributes != nullptr &&
      passes::string_attribute(*attributes, "approximate", "none") == "tanh") {
    // ONNX Gelu (opset 20) approximate="tanh": 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3))).
    return [](const std::vector<float>& v) {
      const float x = v[0];
      const float inner = 0.7978845608f * (x + 0.044715f * x * x * x);
      return 0.5f * x * (1.0f + std::tanh(inner));
    };
  }
  if (fn == "gelu") {
    return [](const std::vector<float>& v) {
      return 0.5f * v[0] * (1.0f + std::erf(v[0] / std::sqrt(2.0f)));
    };
  }
  if (fn == "clip") {  // opset 11+: min and max are operands 1 and 2, omitted ones unbounded
    const float low = attribute(attributes, "min", -std::numeric_limits<float>::infinity());
    const float high = attribute(attributes, "max", std::numeric_limits<float>::infinity());
    return [=](const std::vector<float>& v) {
      return std::min(std::max(v[0], std::isnan(v[1]) ? low : v[1]),
                      std::isnan(v[2]) ? high : v[2]);
    };
  }
  if (fn == "where") {
    return [](const std::vector<float>& v) { return v[0] != 0.0f ? v[1] : v[2]; };
  }
  if (fn == "max" || fn == "min" || fn == "sum") {
    return [fn](const std::vector<float>& v) {
      float value = v[0];
      for (std::size_t i = 1; i < v.size(); ++i) {
        value = fn == "max"   ? std::max(value, v[i])
                : fn == "min" ? std::min(value, v[i])
                              : value + v[i];
      }
      return value;
    };
  }
  if (fn == "cast") {
    const std::optional<Fp8Format> fp8 = fp8_format_of(result_dtype);
    const Fp8Overflow overflow = fp8_overflow(attributes);
    return [result_dtype, fp8, overflow](const std::vector<float>& v) {
      if (fp8) return round_to_fp8(v[0], *fp8, overflow);
      if (result_dtype == ir::DType::kBool) return v[0] != 0.0f ? 1.0f : 0.0f;
      if (result_dtype == ir::DType::kFp16) return round_to_fp16(v[0]);
      return is_integer_dtype(result_dtype) ? std::trunc(v[0]) : v[0];
    };
  }
  if (fn == "div") {  // integers divide as C does, truncating toward zero
    const bool integer = is_integer_dtype(result_dtype);
    return [integer](const std::vector<float>& v) {
      const float quotient = v[0] / v[1];
      return integer ? std::trunc(quotient) : quotient;
    };
  }
  if (fn == "mod") {
    // fmod=1: the remainder takes the dividend's sign (C's fmod); fmod=0, the default: the
    // divisor's (Python's %), as ONNX's Mod defines them.
    const bool dividend_sign =
        attributes != nullptr && passes::int_attribute(*attributes, "fmod", 0) != 0;
    return [dividend_sign](const std::vector<float>& v) {
      const float remainder = std::fmod(v[0], v[1]);
      if (dividend_sign || remainder == 0.0f || (remainder < 0.0f) == (v[1] < 0.0f)) {
        return remainder;
      }
      return remainder + v[1];
    };
  }
  if (fn == "batchnorm") {  // x, scale, bias, mean, variance
    const float epsilon = attribute(attributes, "epsilon", 1e-5);
    return [epsilon](const std::vector<float>& v) {
      return (v[0] - v[3]) / std::sqrt(v[4] + epsilon) * v[1] + v[2];
    };
  }
  if (fn == "quantize") {  // x, scale, zero point (0 when omitted)
    // x / scale is an fp32 division, as the operator's fp32 operands make it (ONNX's reference
    // and ONNX Runtime divide in fp32): in double, a quotient that fp32 rounds to a tie rounds
    // to the other integer. A float8 result is x / scale + zero point rounded to the format
    // (nearest even), saturating unless `saturate` is 0 (opset 19).
    const std::optional<Fp8Format> fp8 = fp8_format_of(result_dtype);
    const Fp8Overflow overflow = fp8_overflow(attributes);
    return [result_dtype, fp8, overflow](const std::vector<float>& v) {
      const float zero_point = std::isnan(v[2]) ? 0.0f : v[2];
      const float quotient = v[0] / v[1];
      if (fp8) return round_to_fp8(quotient + zero_point, *fp8, overflow);
      return saturate(std::nearbyint(double{quotient}) + zero_point, result_dtype);
    };
  }
  if (fn == "dequantize") {
    return [](const std::vector<float>& v) {
      return (v[0] - (std::isnan(v[2]) ? 0.0f : v[2])) * v[1];
    };
  }
  return nullptr;
}

ElementFunction element_function(const std::string& fn, const ir::OnnxNodeAttrs* attributes,
                                 ir::DType result_dtype) {
  if (const auto unary = unary_functions().find(fn); unary != unary_functions().end()) {
    return [f = unary->second](const std::vector<float>& v) { return f(v[0]); };
  }
  if (const auto real = unary_real_functions().find(fn); real != unary_real_functions().end()) {
    return [f = real->second](const std::vector<float>& v) { return static_cast<float>(f(v[0])); };
  }
  if (const auto binary = binary_functions().find(fn); binary != binary_functions().end()) {
    return [f = binary->second](const std::vector<float>& v) { return f(v[0], v[1]); };
  }
  if (ElementFunction special = special_function(fn, attributes, result_dtype)) return special;
  // Only reachable for a function no lowering rule emits (a bug), so not a bad-input error.
  throw_runtime({}, "the interpreter has no kernel for elementwise function '" + fn + "'");
}

// Per-channel operands (one value per channel of axis `axis` of the result) as broadcastable
// [C, 1, ..., 1] tensors.
DenseTensor along_axis(const DenseTensor& operand, std::size_t axis, std::size_t rank) {
  DenseTensor shaped = operand;
  if (operand.shape.size() == 1 && operand.size() > 1 && rank > axis + 1) {
    shaped.shape.assign(rank - axis, 1);
    shaped.shape.front() = operand.size();
  }
  return shaped;
}

// A blocked scale or zero point (opset 21: x's shape with ceil(extent / block) along `axis`)
// spread over the result: each value serves `block` consecutive elements along the axis.
DenseTensor blocks_along_axis(const DenseTensor& operand, std::size_t axis, int64_t block,
                              const Shape& result_shape) {
  DenseTensor spread = filled_tensor(result_shape);
  int64_t inner = 1;  // elements per step along the axis
  for (std::size_t i = axis + 1; i < result_shape.size(); ++i) inner *= result_shape[i];
  const int64_t extent = result_shape[axis];
  const int64_t blocks = operand.shape.at(axis);
  for (std::size_t flat = 0; flat < spread.values.size(); ++flat) {
    const auto index = static_cast<int64_t>(flat);
    const int64_t outer = index / (inner * extent);
    const int64_t along = index / inner % extent;
    const int64_t rest = index % inner;
    spread.values[flat] =
        operand.values[static_cast<std::size_t>((outer * blocks + along / block) * inner + rest)];
  }
  return spread;
}

}  // namespace

DenseTensor elementwise(const std::string& fn, const std::vector<const DenseTensor*>& operands,
                        const Shape& result_shape, ir::DType result_dtype,
                        const ir::OnnxNodeAttrs* attributes) {
  const ElementFunction function = element_function(fn, attributes, result_dtype);
  const bool per_channel = fn == "batchnorm" || fn == "quantize" || fn == "dequantize";
  const int64_t given_axis =
      attributes == nullptr ? 1 : passes::int_attribute(*attributes, "axis", 1);
  const auto channel_axis = static_cast<std::size_t>(
      given_axis < 0 ? given_axis + static_cast<int64_t>(result_shape.size()) : given_axis);
  // Quantisation in blocks along the axis (opset 21); 0: per tensor or per axis.
  const int64_t block = fn == "quantize" || fn == "dequantize"
                            ? (attributes == nullptr
                                   ? 0
                                   : passes::int_attribute(*attributes, "block_size", 0))
                            : 0;
  // Omitted operands read as NaN, which the functions above take as "absent"; every slot up to
  // the function's widest use exists (clip's max, quantize's zero point).
  const std::size_t slots =
      std::max<std::size_t>(operands.size(), fn == "clip" || per_channel ? 3 : 0);
  std::vector<DenseTensor> wide;
  for (std::size_t i = 0; i < slots; ++i) {
    const DenseTensor* operand = i < operands.size() ? operands[i] : nullptr;
    if (operand == nullptr) {
      wide.push_back(filled_tensor(result_shape, std::numeric_limits<float>::quiet_NaN()));
      continue;
    }
    if (block > 0 && i > 0) {
      wide.push_back(blocks_along_axis(*operand, channel_axis, block, result_shape));
      continue;
    }
    const DenseTensor shaped =
        per_channel && i > 0 ? along_axis(*operand, channel_axis, result_shape.size()) : *operand;
    wide.push_back(shaped.shape == result_shape ? shaped : broadcast_to(shaped, result_shape));
  }
  DenseTensor result = filled_tensor(result_shape);
  std::vector<float> element(wide.size());
  for (std::size_t flat = 0; flat < result.values.size(); ++flat) {
    for (std::size_t i = 0; i < wide.size(); ++i) element[i] = wide[i].values[flat];
    result.values[flat] = function(element);
  }
  return result;
}

}  // namespace polyarch::interp
