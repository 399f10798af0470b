#pragma once
// Constant folding: evaluates nodes whose operands are all known values and replaces them by
// the values, so exporter shape chains (Shape -> Gather -> Unsqueeze -> Concat -> Reshape,
// ConstantOfShape, Where/Equal/Expand on constants, Cast/Identity of constants) collapse and
// every Reshape target becomes known. Shapes are inferred on the way, in one topological sweep,
// because a chain's later nodes need the shapes its earlier ones produce.
#include "compiler/passes/pass.h"

namespace polyarch::passes {

// Folded results keep their tensor (and name) and become constants; the nodes go. Model
// parameters are never transformed: a node reading a floating-point initializer (a Gather from
// an embedding table, a Transpose of a weight) is the model's work or a later layout pass's
// choice, so it stays. An Identity of an initializer forwards it (the exporter's alias of a
// shared weight becomes a weight of its own). Results larger than kMaxFoldedElements stay
// computed at run time rather than stored.
//
// Counters: "folded" evaluated nodes, "forwarded" Identity aliases of weights, "constants"
// Constant nodes whose value now lives in their tensor.
class ConstantFoldingPass : public Pass {
 public:
  static constexpr int64_t kMaxFoldedElements = int64_t{1} << 20;

  std::string_view name() const override { return "fold-constants"; }
  PassStatistics run(ir::Graph& graph) override;
};

}  // namespace polyarch::passes
