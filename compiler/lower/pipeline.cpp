#include "compiler/lower/pipeline.h"

#include <memory>

#include "compiler/lower/allow_unknown.h"
#include "compiler/lower/lower_onnx.h"
#include "compiler/passes/constant_folding.h"
#include "compiler/passes/cse.h"
#include "compiler/passes/dead_code.h"
#include "compiler/passes/fold_batchnorm.h"
#include "compiler/passes/fuse_attention.h"
#include "compiler/passes/fuse_bias_activation.h"
#include "compiler/passes/fuse_gelu.h"
#include "compiler/passes/fuse_norm.h"
#include "compiler/passes/layout.h"
#include "compiler/passes/precision.h"
#include "compiler/passes/shape_inference.h"
#include "compiler/passes/sparsity.h"

namespace polyarch::lower {

std::vector<std::unique_ptr<passes::Pass>> standard_passes(const PipelineOptions& options) {
  std::vector<std::unique_ptr<passes::Pass>> passes;
  // Before anything asks an unknown node for its shape.
  if (options.allow_unknown) passes.push_back(std::make_unique<AllowUnknownOpsPass>());
  // Folding first: it infers shapes as it sweeps, so shape chains resolve before the strict
  // inference pass requires every shape to be known.
  passes.push_back(std::make_unique<passes::ConstantFoldingPass>());
  passes.push_back(std::make_unique<passes::ShapeInferencePass>());
  passes.push_back(std::make_unique<passes::DeadCodeEliminationPass>());
  // After folding, so that the exporter's repeated shape chains are equal constants to merge.
  passes.push_back(std::make_unique<passes::CommonSubexpressionPass>());
  passes.push_back(std::make_unique<LoweringPass>());
  // Fusion, on canonical ops: BatchNorm folds into its Conv before the Conv's activation fuses,
  // and GELU is one op before it can become a Gemm's activation.
  passes.push_back(std::make_unique<passes::FoldConvBatchNormPass>());
  passes.push_back(std::make_unique<passes::FuseGeluPass>());
  passes.push_back(std::make_unique<passes::FuseNormPass>());
  passes.push_back(std::make_unique<passes::FuseAttentionPass>());
  passes.push_back(std::make_unique<passes::FuseBiasActivationPass>());
  // On canonical ops: layout inserts Copy transposes, which precision then retypes.
  passes.push_back(std::make_unique<passes::LayoutPass>(options.conv_layout));
  passes.push_back(std::make_unique<passes::PrecisionPass>(options.precision));
  passes.push_back(std::make_unique<passes::SparsityPass>(options.sparsity));
  return passes;
}

passes::PassManager standard_pipeline(const PipelineOptions& options) {
  passes::PassManager manager;
  for (std::unique_ptr<passes::Pass>& pass : standard_passes(options)) {
    manager.add(std::move(pass));
  }
  return manager;
}

bool needs_lowering(const ir::Graph& graph) {
  for (ir::NodeId id = 0; id < graph.node_count(); ++id) {
    if (graph.is_op(id) && graph.op(id).kind() == ir::OpKind::kFrontend) return true;
  }
  return false;
}

}  // namespace polyarch::lower
