#pragma once
// Dead-code elimination: drops ops none of whose results reach a graph output, and tensors no
// remaining op reads or writes (folded constants nobody uses, unused initializers). Graph
// inputs stay even when unused: they are the model's interface.
#include "compiler/passes/pass.h"

namespace polyarch::passes {

// Counters: "ops erased", "tensors erased".
class DeadCodeEliminationPass : public Pass {
 public:
  std::string_view name() const override { return "dce"; }
  PassStatistics run(ir::Graph& graph) override;
};

}  // namespace polyarch::passes
