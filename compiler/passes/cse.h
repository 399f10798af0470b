#pragma once
// Common-subexpression elimination: ops of the same type with the same attributes, element
// type and operands compute the same values, so one of them is enough; equal constants (same
// type, shape and contents) likewise. Exporters repeat small computations (a Shape chain per
// attention layer, the same scalar constant per GELU): after this pass each is computed once.
#include "compiler/passes/pass.h"

namespace polyarch::passes {

// The first op (in topological order) of each set of equal ones stays; the readers of a
// duplicate's results read the first op's instead, and the duplicate and its results go.
// Not merged: ops whose results are named graph outputs, ops with random results (Random*,
// Multinomial, Bernoulli), ops with tensor-valued attributes (Constant, ConstantOfShape: their
// values are merged as constants once folded). Constants are merged when folding computed them
// (a repeated shape chain's Reshape target) and they are scalars or shape, index and mask data
// (int64, int32, bool). Initializers stay apart even when equal: they are the model's
// parameters, and equal ones (the zero biases of an untrained model, which the exporter then
// aliases with Identity nodes) are a coincidence that must not change the parameter count.
// That is also why this pass runs after folding, which gives each such alias a weight of its
// own, rather than before, where it would merge the aliases.
//
// Counters: "ops merged", "constants merged".
class CommonSubexpressionPass : public Pass {
 public:
  std::string_view name() const override { return "cse"; }
  PassStatistics run(ir::Graph& graph) override;
};

}  // namespace polyarch::passes
