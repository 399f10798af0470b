#pragma once
// Sparsity annotation: how pruned each Gemm's and Conv2d's weights are, so that cost models can
// price compressed weight traffic (ir::stored_weight_bytes) and N:M sparse matrix engines.
// Measured from the weight values where the model has them; for a structure-only model (or
// weights without values) taken from a policy: `--sparsity 2:4` or `--sparsity 0.3` (density).
#include <optional>
#include <string>
#include <vector>

#include "compiler/passes/pass.h"

namespace polyarch::passes {

struct SparsityPolicy {
  // What weights without values are assumed to be; nullopt leaves them dense.
  std::optional<ir::WeightSparsity> assumed;
};

// "N:M" (0 < N < M <= 64; density N/M) or a density in (0, 1]. A bad-input error naming
// --sparsity otherwise.
SparsityPolicy parse_sparsity_policy(const std::string& text);

// Density and the tightest N:`group` pattern of weights viewed as [outer, reduction, inner],
// groups of `group` consecutive weights running along the reduction axis (a partial last group
// counts as one). `n` and `m` stay 0 when some group is full (no N:M pattern).
ir::WeightSparsity measure_weight_sparsity(const std::vector<double>& values, int64_t outer,
                                           int64_t reduction, int64_t inner, int64_t group = 4);

// Sets Op::weight_sparsity on Gemm (with a shared B) and Conv2d ops whose weight operand (or,
// in a QDQ model, the int8 initializer its DequantizeLinear reads) is not dense; leaves dense
// weights unannotated. Never changes a value.
// Counters: "measured" ops whose weights were read, "assumed" ops given the policy,
// "structured" ops with an N:M pattern, "sparse" ops annotated in all.
class SparsityPass : public Pass {
 public:
  explicit SparsityPass(SparsityPolicy policy = {}) : policy_(std::move(policy)) {}
  std::string_view name() const override { return "sparsity"; }
  PassStatistics run(ir::Graph& graph) override;

 private:
  SparsityPolicy policy_;
};

}  // namespace polyarch::passes
