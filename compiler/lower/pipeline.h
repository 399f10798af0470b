#pragma once
// The compiler's standard pass pipeline for an imported graph: fold-constants, infer-shapes,
// dce, cse, lower, fold-conv-bn, fuse-gelu, fuse-norm, fuse-attention, fuse-bias-activation,
// layout, precision, sparsity, input-signs (and, with --allow-unknown, allow-unknown first).
#include <memory>
#include <string>
#include <vector>

#include "compiler/passes/pass_manager.h"
#include "compiler/passes/precision.h"
#include "compiler/passes/sparsity.h"

namespace polyarch::lower {

// What the user chose for the optional passes (compile and run flags).
struct PipelineOptions {
  // --allow-unknown: unsupported ONNX ops become placeholders costed by their output bytes.
  bool allow_unknown = false;
  // --precision: the type each canonical op computes in (QDQ models are int8 regardless).
  passes::PrecisionPolicy precision = {};
  // --sparsity: what weights without values are assumed to be (measured where they have them).
  passes::SparsityPolicy sparsity = {};
  // The target's preferred convolution layout (--layout, or --arch's units); nullopt: as
  // imported (NCHW).
  std::optional<ir::Layout> conv_layout = std::nullopt;
};

passes::PassManager standard_pipeline(const PipelineOptions& options = {});

// The standard pipeline's pass names in order (registry names, passes/registry.h).
std::vector<std::string> standard_pass_names(const PipelineOptions& options = {});

// A pipeline of the registered passes `names`, in that order (`compile --passes`).
passes::PassManager pipeline_of(const std::vector<std::string>& names,
                                const PipelineOptions& options = {});

// The same passes, in order, one by one (tests run the interpreter between them).
std::vector<std::unique_ptr<passes::Pass>> standard_passes(const PipelineOptions& options = {});

// Whether the graph has imported nodes that the pipeline would lower (layer lists and
// SCALE-Sim topologies are canonical already).
bool needs_lowering(const ir::Graph& graph);

}  // namespace polyarch::lower
