#pragma once
// Conv+BatchNorm folding: an inference-mode BatchNormalization reading only a convolution's
// result is a per-channel affine map, y = (conv - mean) * s + beta with s = gamma /
// sqrt(var + eps), so it folds into the convolution: W'[k] = W[k] * s[k] and
// b'[k] = (b[k] - mean[k]) * s[k] + beta[k] (b = 0 without a bias). The folded weights are new
// constants computed from the model's; a model without weight values (structure only) folds
// its shapes alone.
#include "compiler/passes/pass.h"

namespace polyarch::passes {

// Counters: "folded", "ops erased".
class FoldConvBatchNormPass : public Pass {
 public:
  std::string_view name() const override { return "fold-conv-bn"; }
  PassStatistics run(ir::Graph& graph) override;
};

}  // namespace polyarch::passes
