// Reading the `model:` map: defaults, and errors at the offending key's file:line:col.
#include "compiler/frontend/model_builder/model_config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/base/error_capture.h"

namespace polyarch::frontend {
namespace {

using polyarch::testing::capture_error;
using ::testing::HasSubstr;

ModelConfig read(const std::string& yaml) {
  return read_model_config(parse_config_text(yaml, "model.yaml"), "fallback");
}

std::optional<Error> read_error(const std::string& yaml) {
  return capture_error([&] { read(yaml); });
}

const char* const kBert =
    "model:\n"
    "  family: transformer\n"
    "  kind: encoder\n"
    "  layers: 12\n"
    "  hidden: 768\n"
    "  heads: 12\n"
    "  seq: 128\n";

TEST(ModelConfig, TransformerDefaultsFollowTheKindAndNorm) {
  const ModelConfig model = read(kBert);
  EXPECT_EQ(model.name, "fallback");
  EXPECT_FALSE(model.dtype.has_value());
  const auto& bert = std::get<TransformerConfig>(model.family);
  EXPECT_EQ(bert.kv_heads, 12);
  EXPECT_EQ(bert.ffn, 3072);
  EXPECT_EQ(bert.norm_placement, NormPlacement::kPost);
  EXPECT_FALSE(bert.causal);
  EXPECT_TRUE(bert.bias);
  EXPECT_EQ(bert.activation, "gelu");
  EXPECT_EQ(bert.tokens(), 128);

  const auto llama = std::get<TransformerConfig>(
      read("name: llama\nmodel: {family: transformer, layers: 2, hidden: 64, heads: 4, "
           "gated_ffn: true, norm: rmsnorm, phase: decode, kv_len: 7, batch: 3, vocab: 50, "
           "dtype: bf16}")
          .family);
  EXPECT_EQ(llama.kind, TransformerKind::kDecoder);
  EXPECT_EQ(llama.norm_placement, NormPlacement::kPre);
  EXPECT_TRUE(llama.causal);
  EXPECT_FALSE(llama.bias);
  EXPECT_EQ(llama.activation, "silu");
  EXPECT_TRUE(llama.lm_head);
  EXPECT_EQ(llama.tokens(), 3);
  EXPECT_EQ(llama.keys(), 8);  // kv_len cached tokens and the new one
}

TEST(ModelConfig, MisspeltKeyIsReportedAtItsPositionWithASuggestion) {
  const std::optional<Error> error = read_error(std::string(kBert) + "  kv_haeds: 4\n");
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("unknown key 'kv_haeds'; did you mean 'kv_heads'?"));
  EXPECT_EQ(error->where().file, "model.yaml");
  EXPECT_EQ(error->where().line, 8);
  EXPECT_EQ(error->where().column, 13);  // the value's position
  EXPECT_EQ(error->where().key_path, "model.kv_haeds");
}

TEST(ModelConfig, HeadsMustDivideHiddenAndKvHeadsMustDivideHeads) {
  std::optional<Error> error = read_error(
      "model:\n  family: transformer\n  layers: 1\n  hidden: 768\n  heads: 10\n  seq: 8\n");
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("hidden=768 is not divisible by heads=10"));
  EXPECT_EQ(error->where().line, 5);
  error = read_error(std::string(kBert) + "  kv_heads: 5\n");
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("heads=12 is not divisible by kv_heads=5"));
  EXPECT_EQ(error->where().line, 8);
  error = read_error(std::string(kBert) + "  kv_heads: 24\n");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->where().key_path, "model.kv_heads");  // more than heads: out of range
}

TEST(ModelConfig, PositionAndTokenTypeTablesNeedAVocabAndEnoughPositions) {
  const std::string decoder = "model: {family: transformer, layers: 1, hidden: 64, heads: 4";
  EXPECT_THAT(read_error(decoder + ", seq: 8, max_positions: 16}")->message(),
              HasSubstr("set vocab"));
  EXPECT_THAT(read_error(decoder + ", seq: 8, token_types: 2}")->message(),
              HasSubstr("set vocab"));
  std::optional<Error> error =
      read_error(decoder + ", vocab: 100, phase: decode, kv_len: 16, max_positions: 16}");
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("max_positions 16 is shorter than the 17 positions"));
  EXPECT_EQ(error->where().key_path, "model.max_positions");
}

TEST(ModelConfig, PhaseKeysBelongToTheirPhase) {
  const std::string decoder = "model: {family: transformer, layers: 1, hidden: 64, heads: 4";
  EXPECT_THAT(read_error(decoder + ", phase: decode, kv_len: 8, seq: 8}")->message(),
              HasSubstr("seq applies to phase: prefill"));
  EXPECT_THAT(read_error(decoder + ", seq: 8, kv_len: 8}")->message(),
              HasSubstr("kv_len applies to phase: decode"));
  EXPECT_THAT(read_error(decoder + ", phase: decode}")->message(),
              HasSubstr("missing required key 'kv_len'"));
  EXPECT_THAT(read_error(decoder + ", kind: encoder, phase: decode, kv_len: 8}")->message(),
              HasSubstr("needs kind: decoder"));
  EXPECT_THAT(read_error(decoder + ", seq: 8, lm_head: true}")->message(),
              HasSubstr("lm_head needs vocab"));
}

TEST(ModelConfig, FamilyAndEnumValuesAreChecked) {
  std::optional<Error> error = read_error("model: {family: resnt}");
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("did you mean 'resnet'?"));
  EXPECT_THAT(read_error("model: {family: resnet, depth: 20}")->message(),
              HasSubstr("allowed: 18, 34, 50, 101, 152"));
  EXPECT_THAT(read_error("model: {family: vgg16, image: 256}")->message(),
              HasSubstr("vgg16 needs image = 224 * k"));
  EXPECT_EQ(read_error("model: {family: mobilenet_v2, image: 16}")->where().key_path,
            "model.image");
  // Keys of another family are unknown here.
  EXPECT_THAT(read_error("model: {family: resnet, heads: 4}")->message(),
              HasSubstr("unknown key 'heads'"));
}

TEST(ModelConfig, DocumentIsAModelOnlyWithAModelMap) {
  EXPECT_TRUE(is_model_document(parse_config_text("model: {family: vgg16}", "m.yaml")));
  EXPECT_FALSE(is_model_document(parse_config_text("layers: []", "m.yaml")));
  EXPECT_THAT(read_error("model: {family: vgg16}\nlayers: []\n")->message(),
              HasSubstr("unknown key 'layers'"));
}

}  // namespace
}  // namespace polyarch::frontend
