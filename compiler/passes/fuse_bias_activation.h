#pragma once
// Conv/Gemm epilogues: a bias Add after a MatMul becomes the Gemm's bias (MatMul + Add ->
// Gemm with bias), and an activation reading only a Gemm's or Conv2d's result (Relu, Clip with
// constant bounds such as ReLU6, Sigmoid, Tanh, LeakyRelu, HardSigmoid, Gelu) becomes the
// op's fused activation. The product's result then never makes a memory round trip: the fused
// op touches the bytes of the product alone, and counts the epilogue's FLOPs itself.
#include "compiler/passes/pass.h"

namespace polyarch::passes {

// Counters: "fused" (ops absorbed), "bias", "activation <fn>", "ops erased".
class FuseBiasActivationPass : public Pass {
 public:
  std::string_view name() const override { return "fuse-bias-activation"; }
  PassStatistics run(ir::Graph& graph) override;
};

}  // namespace polyarch::passes
