#include "compiler/passes/registry.h"

#include <cstdio>

#include "base/config_tree.h"
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
#include "compiler/passes/input_signs.h"
#include "compiler/passes/layout.h"
#include "compiler/passes/precision.h"
#include "compiler/passes/shape_inference.h"
#include "compiler/passes/sparsity.h"

namespace polyarch::passes {

namespace {

template <typename PassType>
std::unique_ptr<Pass> plain(const lower::PipelineOptions&) {
  return std::make_unique<PassType>();
}

}  // namespace

const std::vector<PassEntry>& pass_registry() {
  static const std::vector<PassEntry> entries = {
      {"allow-unknown", "unsupported ONNX operators become placeholders costed by output bytes",
       plain<lower::AllowUnknownOpsPass>},
      {"fold-constants", "evaluate constant nodes and shape chains, inferring shapes on the way",
       plain<ConstantFoldingPass>},
      {"infer-shapes", "every tensor's shape and type, checked against the model's declarations",
       plain<ShapeInferencePass>},
      {"dce", "drop nodes and tensors that no graph output needs", plain<DeadCodeEliminationPass>},
      {"cse", "merge equal ops (same type, attributes and operands) and equal constants",
       plain<CommonSubexpressionPass>},
      {"lower", "each ONNX node becomes a canonical op (gemm, conv2d, pool, elementwise, ...)",
       plain<lower::LoweringPass>},
      {"fold-conv-bn", "fold an inference BatchNormalization into the convolution before it",
       plain<FoldConvBatchNormPass>},
      {"fuse-gelu", "turn the erf or tanh GELU formula of primitives into one elementwise gelu",
       plain<FuseGeluPass>},
      {"fuse-norm", "turn LayerNorm or RMSNorm written as primitives into one norm op",
       plain<FuseNormPass>},
      {"fuse-attention",
       "scaled-dot-product attention (Q K^T, scale, mask, softmax, P V) as one op",
       plain<FuseAttentionPass>},
      {"fuse-bias-activation",
       "a bias Add and an activation (relu, clip, gelu, ...) into the gemm/conv2d",
       plain<FuseBiasActivationPass>},
      {"layout", "the target's convolution layout (--layout), transposes where ops disagree",
       [](const lower::PipelineOptions& options) -> std::unique_ptr<Pass> {
         return std::make_unique<LayoutPass>(options.conv_layout);
       }},
      {"precision", "each op's type: QDQ matrix ops int8, the rest as --precision says",
       [](const lower::PipelineOptions& options) -> std::unique_ptr<Pass> {
         return std::make_unique<PrecisionPass>(options.precision);
       }},
      {"sparsity", "weight density and N:M pattern of gemm/conv2d ops (measured, or --sparsity)",
       [](const lower::PipelineOptions& options) -> std::unique_ptr<Pass> {
         return std::make_unique<SparsityPass>(options.sparsity);
       }},
      {"input-signs", "whether each op's input can be negative, from what produces it",
       plain<InputSignsPass>},
  };
  return entries;
}

namespace {

std::vector<std::string> registered_names() {
  std::vector<std::string> names;
  for (const PassEntry& entry : pass_registry()) names.emplace_back(entry.name);
  return names;
}

const PassEntry& entry_named(std::string_view name, const std::string& flag) {
  for (const PassEntry& entry : pass_registry()) {
    if (entry.name == name) return entry;
  }
  const std::vector<std::string> names = registered_names();
  std::string message = flag + ": no pass named '" + std::string(name) + "'";
  const std::string suggestion = nearest_spelling(std::string(name), names);
  if (!suggestion.empty()) message += "; did you mean '" + suggestion + "'?";
  std::string known;
  for (const std::string& known_name : names) known += (known.empty() ? "" : ", ") + known_name;
  throw_bad_input({}, message + " (passes: " + known + ")");
}

}  // namespace

std::unique_ptr<Pass> make_pass(std::string_view name, const lower::PipelineOptions& options) {
  return entry_named(name, "pass").make(options);
}

std::vector<std::string> parse_pass_list(const std::string& text, const std::string& flag) {
  std::vector<std::string> names;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string name = text.substr(start, comma == std::string::npos ? comma : comma - start);
    if (name.empty()) throw_bad_input({}, flag + " " + text + ": an empty pass name");
    names.emplace_back(entry_named(name, flag).name);
    if (comma == std::string::npos) return names;
    start = comma + 1;
  }
}

std::string pass_registry_help() {
  std::string text;
  for (const PassEntry& entry : pass_registry()) {
    char line[200];
    std::snprintf(line, sizeof(line), "  %-21s %.*s\n", std::string(entry.name).c_str(),
                  static_cast<int>(entry.description.size()), entry.description.data());
    text += line;
  }
  return text;
}

}  // namespace polyarch::passes
