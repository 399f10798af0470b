#pragma once
// The `model:` map of a workload YAML: a model family and its few hyper-parameters, from which
// a builder generates the graph of canonical ops an imported and lowered export would give.
//   name: llama2_7b_decode          # optional; else the file's stem
//   model: {family: transformer, layers: 32, hidden: 4096, heads: 32, ...}
// Every key is checked at its file:line:col (unknown keys get the nearest valid one suggested,
// ranges and divisibility are checked where the offending key is). Keys and defaults:
// docs/workloads.md ("Model builders") and the structs below.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "base/checked_math.h"
#include "base/config_tree.h"
#include "compiler/frontend/block_sparse_keys.h"
#include "compiler/ir/dtype.h"
#include "compiler/ir/op.h"
#include "compiler/passes/precision.h"

namespace polyarch::frontend {

enum class TransformerKind { kEncoder, kDecoder };
enum class TransformerPhase { kPrefill, kDecode };
// Pre-norm (GPT-2, LLaMA): x + f(norm(x)), and a final norm after the last layer. Post-norm
// (BERT): norm(x + f(x)), and a norm of the embeddings when there are embeddings.
enum class NormPlacement { kPre, kPost };

struct TransformerConfig {
  TransformerKind kind = TransformerKind::kDecoder;
  int64_t layers = 0;
  int64_t hidden = 0;
  int64_t heads = 0;
  int64_t kv_heads = 0;    // = heads by default; fewer is GQA, 1 is MQA
  int64_t ffn = 0;         // 4 * hidden by default
  bool gated_ffn = false;  // SwiGLU: down(act(gate(x)) * up(x))
  std::string activation;  // elementwise fn of the FFN: gelu (default), silu if gated, relu
  ir::NormKind norm = ir::NormKind::kLayerNorm;
  NormPlacement norm_placement = NormPlacement::kPre;  // post for encoders by default
  bool bias = true;    // projections add a bias: default for LayerNorm models, not RMSNorm ones
  bool causal = true;  // default for decoders; encoders attend both ways
  int64_t window = 0;  // sliding-window attention: keys each token sees (0: all)
  // Block-sparse (BigBird) attention in every layer (block_sparse_keys.h); not with a window.
  std::optional<BigBirdKey> block_sparse;
  TransformerPhase phase = TransformerPhase::kPrefill;
  int64_t seq = 0;     // prefill: tokens per sequence
  int64_t kv_len = 0;  // decode: tokens already in the KV cache before this step
  int64_t batch = 1;
  int64_t vocab = 0;     // 0: no token embedding or lm_head
  // Learned tables added to the token embedding (BERT: 512 positions and 2 token types; GPT-2:
  // 1024 positions); 0 = none (rotary or no positions).
  int64_t max_positions = 0;
  int64_t token_types = 0;
  bool lm_head = false;  // default for decoders with a vocab

  int64_t head_dim() const { return hidden / heads; }
  // Rows of every projection GEMM: all prompt tokens in prefill, one new token per sequence in
  // decode.
  int64_t tokens() const {
    return phase == TransformerPhase::kDecode ? batch : checked_mul(batch, seq, "tokens");
  }
  // Query positions per sequence, and the keys each sequence's queries attend over: in decode
  // the new token attends to the kv_len cached tokens plus itself.
  int64_t queries() const { return phase == TransformerPhase::kDecode ? 1 : seq; }
  int64_t keys() const { return phase == TransformerPhase::kDecode ? kv_len + 1 : seq; }
};

// What every image classifier takes: an image batch and the number of classes.
struct ImageClassifierConfig {
  int64_t batch = 1;
  int64_t image = 224;  // square, RGB
  int64_t classes = 1000;
};

// torchvision resnet18/34/50/101/152 (ResNet v1.5: the stride sits on the 3x3 convolution).
struct ResnetConfig {
  int64_t depth = 50;
  ImageClassifierConfig input;
};

// torchvision mobilenet_v2 with its width multiplier (channels rounded to multiples of 8).
struct MobilenetV2Config {
  double width = 1.0;
  ImageClassifierConfig input;
};

// torchvision vgg16 (configuration D, no batch norm).
struct Vgg16Config {
  ImageClassifierConfig input;
};

using ModelFamily = std::variant<TransformerConfig, ResnetConfig, MobilenetV2Config, Vgg16Config>;

struct ModelConfig {
  std::string name;                // the graph's name
  std::optional<ir::DType> dtype;  // of every op; nullopt = the executing unit's native type
  // `precision:` as --precision reads it (a type or a scheme such as w4a16 or
  // weights=int4:g128,activations=bf16,kv_cache=fp8), applied to the built graph.
  std::optional<passes::PrecisionPolicy> precision;
  SourceLocation where;            // the `model:` map; every op points here in errors
  ModelFamily family;
};

// The family names `family:` accepts.
const std::vector<std::string>& model_family_names();

// Whether a workload document describes a model (a top-level `model:` key) rather than a layer
// list.
bool is_model_document(const ConfigNode& root);

// Reads the document's `name:` and `model:` map; `default_name` names the graph otherwise.
ModelConfig read_model_config(const ConfigNode& root, const std::string& default_name);

}  // namespace polyarch::frontend
