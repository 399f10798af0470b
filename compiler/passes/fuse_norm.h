#pragma once
// LayerNorm and RMSNorm recognised from primitives over the last axis:
//   LayerNorm: d = x - mean(x); y = d / sqrt(mean(d^2) + eps) * gamma [+ beta]
//   RMSNorm:   y = x / sqrt(mean(x^2) + eps) * gamma
// with squares as Pow(., 2) or a product with itself and the division as Div, or Mul by
// Reciprocal (or 1 / .) of the root. Exponent, epsilon (a positive scalar constant) and the
// reduced axis are checked; gamma and beta must be per-column parameters. The result is one
// Norm op whose node carries epsilon, as ONNX LayerNormalization (and RMSNormalization) does.
#include "compiler/passes/pass.h"

namespace polyarch::passes {

// Counters: "fused" (all), "layernorm", "rmsnorm", "ops erased".
class FuseNormPass : public Pass {
 public:
  std::string_view name() const override { return "fuse-norm"; }
  PassStatistics run(ir::Graph& graph) override;
};

}  // namespace polyarch::passes
