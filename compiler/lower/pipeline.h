#pragma once
// The compiler's standard pass pipeline for an imported graph: fold-constants, infer-shapes,
// dce, lower. Later passes (fusion, layout, precision, sparsity) are added here in order.
#include <memory>
#include <vector>

#include "compiler/passes/pass_manager.h"

namespace polyarch::lower {

passes::PassManager standard_pipeline();

// The same passes, in order, one by one (tests run the interpreter between them).
std::vector<std::unique_ptr<passes::Pass>> standard_passes();

// Whether the graph has imported nodes that the pipeline would lower (layer lists and
// SCALE-Sim topologies are canonical already).
bool needs_lowering(const ir::Graph& graph);

}  // namespace polyarch::lower
