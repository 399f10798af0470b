#pragma once
// The interpreter's hook for unit models that compute matrix products their own way: an analog
// crossbar multiplies activations by weights held as conductances, with ADC, noise and fault
// effects the fp32 kernels do not have. The interpreter hands such an engine the products of
// Gemm and Conv2d ops whose weight operand is a constant of the graph (static weights); the op's
// digital parts (transposes, alpha/beta, bias, any fused epilogue) stay in the interpreter's
// code, applied to the engine's product, so the hook does not depend on how ops were fused.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "compiler/interp/dense_tensor.h"
#include "compiler/interp/kernels.h"
#include "compiler/ir/op.h"

namespace polyarch::interp {

// One static-weight product: [m x k] activations times [k x n] weights, both row-major.
struct MvmCall {
  const ir::Op& op;
  // Which of the op's independent weight matrices this is (a convolution group); engines key
  // per-layer statistics and random streams on (op name, weight_set).
  int64_t weight_set = 0;
  int64_t m = 0;
  int64_t k = 0;
  int64_t n = 0;
  std::span<const float> activations;
  std::span<const float> weights;
};

class MvmEngine {
 public:
  virtual ~MvmEngine() = default;
  // Whether this engine runs `op`'s product (its unit would be given the op).
  virtual bool accepts(const ir::Op& op) const = 0;
  // The [m x n] product, row-major.
  virtual std::vector<float> multiply(const MvmCall& call) = 0;
  // What the engine models (unit, effects, seed), for the functional summary.
  virtual nlohmann::ordered_json describe() const = 0;
  // Per-op statistics the engine gathered (null for an op it did not run).
  virtual nlohmann::ordered_json op_stats(const std::string& op_name) const = 0;
};

// The reference kernels' static-weight ops with the product computed by `engine` (same
// semantics as gemm(), matmul() and conv2d() in kernels.h). The bias and ONNX Gemm's alpha and
// beta are applied digitally to the engine's product. matmul_through falls back to matmul() when
// `b` is not one 2-D weight matrix.
DenseTensor gemm_through(MvmEngine& engine, const ir::Op& op, const DenseTensor& a,
                         const DenseTensor& b, const DenseTensor* c, const GemmOptions& options);
DenseTensor matmul_through(MvmEngine& engine, const ir::Op& op, const DenseTensor& a,
                           const DenseTensor& b);
// Convolution as im2col products, one per group: rows are output pixels, the reduction runs
// over (input channel, r, s) as the filters are laid out.
DenseTensor conv2d_through(MvmEngine& engine, const ir::Op& op, const DenseTensor& input,
                           const DenseTensor& weight, const DenseTensor* bias,
                           const ir::Conv2dAttrs& attrs);

}  // namespace polyarch::interp
