#include "compiler/lower/pipeline.h"

#include <memory>

#include "compiler/passes/registry.h"

namespace polyarch::lower {

namespace {

// The standard order, by registry name.
//  - Folding first: it infers shapes as it sweeps, so shape chains resolve before the strict
//    inference pass requires every shape to be known.
//  - cse after folding, so that the exporter's repeated shape chains are equal constants to
//    merge.
//  - Fusion on canonical ops: BatchNorm folds into its Conv before the Conv's activation fuses,
//    and GELU is one op before it can become a Gemm's activation.
//  - layout inserts Copy transposes, which precision then retypes.
constexpr const char* kStandardPasses[] = {
    "fold-constants", "infer-shapes",         "dce",       "cse",
    "lower",          "fold-conv-bn",         "fuse-gelu", "fuse-norm",
    "fuse-attention", "fuse-bias-activation", "layout",    "precision",
    "sparsity",       "input-signs"};

}  // namespace

std::vector<std::string> standard_pass_names(const PipelineOptions& options) {
  std::vector<std::string> names;
  // Before anything asks an unknown node for its shape.
  if (options.allow_unknown) names.emplace_back("allow-unknown");
  for (const char* name : kStandardPasses) names.emplace_back(name);
  return names;
}

std::vector<std::unique_ptr<passes::Pass>> standard_passes(const PipelineOptions& options) {
  std::vector<std::unique_ptr<passes::Pass>> passes;
  for (const std::string& name : standard_pass_names(options)) {
    passes.push_back(passes::make_pass(name, options));
  }
  return passes;
}

passes::PassManager pipeline_of(const std::vector<std::string>& names,
                                const PipelineOptions& options) {
  passes::PassManager manager;
  for (const std::string& name : names) manager.add(passes::make_pass(name, options));
  return manager;
}

passes::PassManager standard_pipeline(const PipelineOptions& options) {
  return pipeline_of(standard_pass_names(options), options);
}

bool needs_lowering(const ir::Graph& graph) {
  for (ir::NodeId id = 0; id < graph.node_count(); ++id) {
    if (graph.is_op(id) && graph.op(id).kind() == ir::OpKind::kFrontend) return true;
  }
  return false;
}

}  // namespace polyarch::lower
