#pragma once
// Lowering: replaces every imported ONNX node of a shape-inferred, folded graph by one
// canonical op (Gemm, Conv2d, Pool, Elementwise, Reduce, Norm, Softmax, Embedding, Copy), in
// place, keeping the node's name, location and result tensors. Attention stays as batched
// Gemms and a Softmax until a fusion pass recognises it.
#include "compiler/passes/pass.h"

namespace polyarch::lower {

// Counters: "lowered" nodes, "erased" nodes that do no work (Constants), and "tensors erased"
// (operands only the imported nodes read: Reshape targets, axes).
class LoweringPass : public passes::Pass {
 public:
  std::string_view name() const override { return "lower"; }
  passes::PassStatistics run(ir::Graph& graph) override;
};

}  // namespace polyarch::lower
