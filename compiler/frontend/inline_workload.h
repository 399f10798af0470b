#pragma once
// A one-op workload written on the command line, for "the same kernel on every architecture":
// `gemm:M,N,K` and `attention:B,H,S,D[,causal]`, each optionally followed by `:dtype`
// (`gemm:4096,4096,4096:bf16`). It becomes a one-layer layer list, so its keys are checked the
// same way.
#include <optional>
#include <string>

#include "compiler/ir/graph.h"

namespace polyarch::frontend {

// Whether `spec` has the form above (its prefix names an inline kind); the values are checked
// by inline_workload.
bool looks_like_inline_workload(const std::string& spec);

// The graph of an inline spec; a malformed spec is a bad-input error naming it.
ir::Graph inline_workload(const std::string& spec);

}  // namespace polyarch::frontend
