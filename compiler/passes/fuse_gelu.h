#pragma once
// GELU recognised from the primitives exporters write it as, in both forms:
//   erf:  x * 0.5 * (1 + erf(x / sqrt 2))                       (Div or Mul by 1/sqrt 2)
//   tanh: 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))  (Pow 3 or x*x*x)
// with the final 0.5, x and (1 + ...) multiplied in any order. Every constant is checked
// before fusing; a pattern with other constants (or an intermediate someone else reads) stays.
// The result is one Elementwise gelu; the tanh form's node says approximate="tanh", as ONNX
// Gelu (opset 20) does, so the interpreter computes the same approximation.
#include "compiler/passes/pass.h"

namespace polyarch::passes {

// Counters: "fused" (all), "gelu erf", "gelu tanh", "ops erased".
class FuseGeluPass : public Pass {
 public:
  std::string_view name() const override { return "fuse-gelu"; }
  PassStatistics run(ir::Graph& graph) override;
};

}  // namespace polyarch::passes
