#include "compiler/frontend/model_builder/model_config.h"

#include "compiler/ir/block_sparse_layout.h"

namespace polyarch::frontend {

namespace {

// As layer lists: large enough for any real dimension, small enough that products of a few
// are still caught by the checked 64-bit arithmetic.
constexpr int64_t kMaxModelDim = int64_t{1} << 40;
constexpr int64_t kMaxLayers = 10000;
// CNN inputs: the smallest that survives the five stride-2 stages, the largest any camera gives.
constexpr int64_t kMinImage = 32;
constexpr int64_t kMaxImage = 16384;

// Where to point at a check that involves an optional key: the key when given, else the map.
const ConfigNode& key_or_map(MapReader& map, const std::string& key) {
  const ConfigNode* value = map.optional(key);
  return value != nullptr ? *value : map.node();
}

void require_model_divisible(MapReader& map, const std::string& divisor_key,
                       const std::string& dividend_key, int64_t dividend, int64_t divisor) {
  if (dividend % divisor == 0) return;
  throw_bad_input(key_or_map(map, divisor_key).where(),
                  dividend_key + "=" + std::to_string(dividend) + " is not divisible by " +
                      divisor_key + "=" + std::to_string(divisor));
}

// A key that only one phase reads is an error in the other, not a silently ignored value.
void reject_key(MapReader& map, const std::string& key, const std::string& why) {
  if (const ConfigNode* value = map.optional(key)) throw_bad_input(value->where(), why);
}

void read_phase(MapReader& model, TransformerConfig& config) {
  const bool decode = model.optional_enum("phase", "prefill", {"prefill", "decode"}) == "decode";
  if (!decode) {
    config.phase = TransformerPhase::kPrefill;
    reject_key(model, "kv_len",
               "kv_len applies to phase: decode (a prefill attends over its own seq tokens)");
    config.seq = model.required_int("seq", 1, kMaxModelDim);
    return;
  }
  if (config.kind == TransformerKind::kEncoder) {
    throw_bad_input(model.required("phase").where(),
                    "phase: decode needs kind: decoder (an encoder has no KV cache)");
  }
  config.phase = TransformerPhase::kDecode;
  reject_key(model, "seq",
             "seq applies to phase: prefill; a decode step adds one token per sequence to a "
             "cache of kv_len tokens");
  config.kv_len = model.required_int("kv_len", 1, kMaxModelDim);
}

// The FFN, norm and bias keys, whose defaults follow the architecture families they come from.
void read_layer_style(MapReader& model, TransformerConfig& config) {
  config.ffn = model.optional_int("ffn", 4 * config.hidden, 1, kMaxModelDim);
  config.gated_ffn = model.optional_bool("gated_ffn", false);
  config.activation = model.optional_enum("activation", config.gated_ffn ? "silu" : "gelu",
                                          {"gelu", "relu", "silu"});
  const std::string norm = model.optional_enum("norm", "layernorm", {"layernorm", "rmsnorm"});
  config.norm = norm == "rmsnorm" ? ir::NormKind::kRmsNorm : ir::NormKind::kLayerNorm;
  const bool encoder = config.kind == TransformerKind::kEncoder;
  config.norm_placement =
      model.optional_enum("norm_placement", encoder ? "post" : "pre", {"pre", "post"}) == "post"
          ? NormPlacement::kPost
          : NormPlacement::kPre;
  // BERT, GPT-2 and OPT (LayerNorm) have projection biases; LLaMA and Mistral (RMSNorm) do not.
  config.bias = model.optional_bool("bias", config.norm == ir::NormKind::kLayerNorm);
}

TransformerConfig read_transformer(MapReader& model) {
  TransformerConfig config;
  config.kind = model.optional_enum("kind", "decoder", {"encoder", "decoder"}) == "encoder"
                    ? TransformerKind::kEncoder
                    : TransformerKind::kDecoder;
  const bool decoder = config.kind == TransformerKind::kDecoder;
  config.layers = model.required_int("layers", 1, kMaxLayers);
  config.hidden = model.required_int("hidden", 1, kMaxModelDim);
  config.heads = model.required_int("heads", 1, config.hidden);
  require_model_divisible(model, "heads", "hidden", config.hidden, config.heads);
  config.kv_heads = model.optional_int("kv_heads", config.heads, 1, config.heads);
  require_model_divisible(model, "kv_heads", "heads", config.heads, config.kv_heads);
  read_layer_style(model, config);
  config.causal = model.optional_bool("causal", decoder);
  config.window = model.optional_int("window", 0, 1, kMaxModelDim);
  config.block_sparse = read_bigbird_key(model);
  if (config.block_sparse && config.window > 0) {
    throw_bad_input(model.required("block_sparse").where(),
                    "a block-sparse pattern and a sliding window together are not defined "
                    "(give one of them)");
  }
  read_phase(model, config);
  if (config.block_sparse) {
    const std::string too_large = ir::layout_size_error(config.block_sparse->block, config.keys());
    if (!too_large.empty()) throw_bad_input(model.required("block_sparse").where(), too_large);
  }
  config.batch = model.optional_int("batch", 1, 1, kMaxModelDim);
  config.vocab = model.optional_int("vocab", 0, 1, kMaxModelDim);
  config.max_positions = model.optional_int("max_positions", 0, 0, kMaxModelDim);
  config.token_types = model.optional_int("token_types", 0, 0, kMaxModelDim);
  if ((config.max_positions > 0 || config.token_types > 0) && config.vocab == 0) {
    throw_bad_input(model.required(config.max_positions > 0 ? "max_positions" : "token_types")
                        .where(),
                    "position and token-type tables are added to the token embedding: set vocab");
  }
  if (config.max_positions > 0 && config.keys() > config.max_positions) {
    throw_bad_input(model.required("max_positions").where(),
                    "max_positions " + std::to_string(config.max_positions) + " is shorter than the " +
                        std::to_string(config.keys()) + " positions the model attends over");
  }
  config.lm_head = model.optional_bool("lm_head", decoder && config.vocab > 0);
  if (config.lm_head && config.vocab == 0) {
    throw_bad_input(model.required("lm_head").where(), "lm_head needs vocab (its output width)");
  }
  return config;
}

ImageClassifierConfig read_image_classifier(MapReader& model) {
  ImageClassifierConfig input;
  input.batch = model.optional_int("batch", 1, 1, kMaxModelDim);
  input.image = model.optional_int("image", 224, kMinImage, kMaxImage);
  input.classes = model.optional_int("classes", 1000, 1, kMaxModelDim);
  return input;
}

ResnetConfig read_resnet(MapReader& model) {
  ResnetConfig config;
  config.depth = std::stoll(model.optional_enum("depth", "50", {"18", "34", "50", "101", "152"}));
  config.input = read_image_classifier(model);
  return config;
}

MobilenetV2Config read_mobilenet_v2(MapReader& model) {
  MobilenetV2Config config;
  // torchvision rounds channels to multiples of 8 with at least 8, so tiny widths still build.
  config.width = model.optional_double("width", 1.0, 0.05, 4.0);
  config.input = read_image_classifier(model);
  return config;
}

Vgg16Config read_vgg16(MapReader& model) {
  Vgg16Config config;
  config.input = read_image_classifier(model);
  // The classifier reads a 7x7 map; torchvision's adaptive pool makes one from any size, but
  // with equal windows (an ordinary average pool) only when the 1/32 map is a multiple of 7.
  if (config.input.image % 224 != 0) {
    throw_bad_input(key_or_map(model, "image").where(),
                    "vgg16 needs image = 224 * k (its classifier pools the 1/32 feature map to "
                    "7x7 with equal windows), got " +
                        std::to_string(config.input.image));
  }
  return config;
}

ModelFamily read_family(MapReader& model, const std::string& family) {
  if (family == "transformer") return read_transformer(model);
  if (family == "resnet") return read_resnet(model);
  if (family == "mobilenet_v2") return read_mobilenet_v2(model);
  return read_vgg16(model);
}

}  // namespace

const std::vector<std::string>& model_family_names() {
  static const std::vector<std::string> names = {"transformer", "resnet", "mobilenet_v2", "vgg16"};
  return names;
}

bool is_model_document(const ConfigNode& root) {
  return root.is_map() && root.find("model") != nullptr;
}

ModelConfig read_model_config(const ConfigNode& root, const std::string& default_name) {
  MapReader top(root);
  ModelConfig config;
  config.name = top.optional_string("name", default_name);
  if (config.name.empty()) throw_bad_input(top.required("name").where(), "model name is empty");
  const ConfigNode& model_node = top.required("model");
  top.finish();
  MapReader model(model_node);
  config.where = model_node.where();
  const std::string family = model.required_enum("family", model_family_names());
  if (model.has("dtype")) {
    config.dtype = ir::parse_dtype(model.required_enum("dtype", ir::dtype_spellings()));
    if (config.dtype == ir::DType::kInt4) {
      throw_bad_input(model.required("dtype").where(),
                      "int4 is a storage format: precision: w4a16 (or weights=int4:g128) stores "
                      "the weights in it");
    }
  }
  if (model.has("precision")) {
    const ConfigNode& node = model.required("precision");
    try {
      config.precision = passes::parse_precision_policy(model.required_string("precision"));
    } catch (const Error& error) {
      // The flag's wording ("--precision P: ...") read as this key's.
      std::string message = error.message();
      if (message.rfind("--", 0) == 0) message.erase(0, 2);
      throw_bad_input(node.where(), message);
    }
  }
  config.family = read_family(model, family);
  model.finish();
  return config;
}

}  // namespace polyarch::frontend
