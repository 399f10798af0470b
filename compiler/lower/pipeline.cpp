#include "compiler/lower/pipeline.h"

#include <memory>

#include "compiler/lower/lower_onnx.h"
#include "compiler/passes/constant_folding.h"
#include "compiler/passes/dead_code.h"
#include "compiler/passes/shape_inference.h"

namespace polyarch::lower {

passes::PassManager standard_pipeline() {
  passes::PassManager manager;
  // Folding first: it infers shapes as it sweeps, so shape chains resolve before the strict
  // inference pass requires every shape to be known.
  manager.add(std::make_unique<passes::ConstantFoldingPass>());
  manager.add(std::make_unique<passes::ShapeInferencePass>());
  manager.add(std::make_unique<passes::DeadCodeEliminationPass>());
  manager.add(std::make_unique<LoweringPass>());
  return manager;
}

bool needs_lowering(const ir::Graph& graph) {
  for (ir::NodeId id = 0; id < graph.node_count(); ++id) {
    if (graph.is_op(id) && graph.op(id).kind() == ir::OpKind::kFrontend) return true;
  }
  return false;
}

}  // namespace polyarch::lower
