#include "compiler/lower/pipeline.h"

#include <memory>

#include "compiler/lower/lower_onnx.h"
#include "compiler/passes/constant_folding.h"
#include "compiler/passes/dead_code.h"
#include "compiler/passes/shape_inference.h"

namespace polyarch::lower {

std::vector<std::unique_ptr<passes::Pass>> standard_passes() {
  std::vector<std::unique_ptr<passes::Pass>> passes;
  // Folding first: it infers shapes as it sweeps, so shape chains resolve before the strict
  // inference pass requires every shape to be known.
  passes.push_back(std::make_unique<passes::ConstantFoldingPass>());
  passes.push_back(std::make_unique<passes::ShapeInferencePass>());
  passes.push_back(std::make_unique<passes::DeadCodeEliminationPass>());
  passes.push_back(std::make_unique<LoweringPass>());
  return passes;
}

passes::PassManager standard_pipeline() {
  passes::PassManager manager;
  for (std::unique_ptr<passes::Pass>& pass : standard_passes()) manager.add(std::move(pass));
  return manager;
}

bool needs_lowering(const ir::Graph& graph) {
  for (ir::NodeId id = 0; id < graph.node_count(); ++id) {
    if (graph.is_op(id) && graph.op(id).kind() == ir::OpKind::kFrontend) return true;
  }
  return false;
}

}  // namespace polyarch::lower
