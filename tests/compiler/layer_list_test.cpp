#include "compiler/frontend/layer_list.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "compiler/ir/op_text.h"
#include "tests/base/error_capture.h"

namespace polyarch::frontend {
namespace {

using polyarch::testing::capture_error;
using polyarch::testing::source_path;
using ::testing::HasSubstr;

ir::Graph from_text(const std::string& text) {
  return layer_list_from_config(parse_config_text(text, "w.yaml"), "fallback");
}

// The error a one-layer list with these extra keys produces.
std::optional<Error> layer_error(const std::string& layer_map) {
  return capture_error([&] { from_text("layers:\n  - " + layer_map + "\n"); });
}

// The key path a one-layer list with this layer fails at.
std::string error_key_path(const std::string& layer_map) {
  const std::optional<Error> error = layer_error(layer_map);
  return error ? error->where().key_path : "<no error>";
}

const ir::Op& op_named(const ir::Graph& graph, const std::string& name) {
  for (ir::NodeId id : graph.topological_ops()) {
    if (graph.op(id).name == name) return graph.op(id);
  }
  throw std::runtime_error("no op " + name);
}

TEST(LayerList, LoadsConvAndGemmLayersWithShapes) {
  const ir::Graph graph = load_layer_list(source_path("tests/data/layer_list/small_net.yaml"));
  EXPECT_EQ(graph.name(), "small_net");
  ASSERT_EQ(graph.op_count(), 3u);
  EXPECT_EQ(print_graph(graph),
            "graph \"small_net\"\n"
            "input %stem.in[1,3,32,32]:int8\n"
            "weight %stem.w[16,3,3,3]:int8\n"
            "input %head.in[2,16,256]:fp16\n"
            "weight %head.w[2,256,10]:fp16\n"
            "input %layer2.in[1,16,8,6]:int8\n"
            "weight %layer2.w[16,1,3,1]:int8\n"
            "%stem = conv2d(%stem.in[1,3,32,32], %stem.w[16,3,3,3]) n=1 c=3 h=32 w=32 k=16 "
            "window=3x3 stride=2x2 pad=1x1 groups=1 -> %stem.out[1,16,16,16]:int8 native\n"
            "%head = gemm(%head.in[2,16,256], %head.w[2,256,10]) m=16 n=10 k=256 batch=2 -> "
            "%head.out[2,16,10]:fp16 fp16\n"
            "%layer2 = conv2d(%layer2.in[1,16,8,6], %layer2.w[16,1,3,1]) n=1 c=16 h=8 w=6 k=16 "
            "window=3x1 stride=1x2 pad=1x0 groups=16 -> %layer2.out[1,16,8,3]:int8 native\n"
            "output %stem.out, %head.out, %layer2.out\n");
}

TEST(LayerList, OpsRememberTheirLayerLocation) {
  const ir::Graph graph = load_layer_list(source_path("tests/data/layer_list/small_net.yaml"));
  const ir::Op& head = op_named(graph, "head");
  EXPECT_THAT(head.where.file, HasSubstr("small_net.yaml"));
  EXPECT_EQ(head.where.line, 15);
  EXPECT_EQ(head.where.key_path, "layers[1]");
  EXPECT_EQ(head.dtype, ir::DType::kFp16);
}

TEST(LayerList, GraphNameDefaultsToTheGivenName) {
  EXPECT_EQ(from_text("layers: [{op: gemm, m: 1, n: 1, k: 1}]").name(), "fallback");
}

TEST(LayerList, LayersReadSeparateTensorsSoOrderIsFileOrder) {
  const ir::Graph graph = from_text(
      "layers: [{name: b, op: gemm, m: 1, n: 1, k: 1}, {name: a, op: gemm, m: 2, n: 2, k: 2}]");
  const auto ops = graph.topological_ops();
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(graph.op(ops[0]).name, "b");
  EXPECT_EQ(graph.op(ops[1]).name, "a");
  EXPECT_EQ(graph.inputs_of(ops[0]).size(), 2u);
}

TEST(LayerList, UnknownKeySuggestsNearestSpellingWithKeyPath) {
  auto error = capture_error([] {
    from_text(
        "layers:\n  - {name: a, op: gemm, m: 1, n: 1, k: 1}\n"
        "  - {name: b, op: conv2d, c: 3, h: 8, w: 8, k: 4, r: 3, s: 3, stirde: 2}\n");
  });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "unknown key 'stirde'; did you mean 'stride'?");
  EXPECT_EQ(error->where().to_string(), "w.yaml:3:71: layers[1].stirde");
}

TEST(LayerList, WrongTypeNamesValueAndKeyPath) {
  auto error = layer_error("{op: gemm, m: 4, n: many, k: 1}");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "expected an integer, got 'many'");
  EXPECT_EQ(error->where().key_path, "layers[0].n");
  EXPECT_EQ(error->where().line, 2);
}

TEST(LayerList, ZeroAndNegativeSizesAreRejected) {
  auto zero = layer_error("{op: gemm, m: 4, n: 4, k: 0}");
  ASSERT_TRUE(zero);
  EXPECT_THAT(zero->message(), HasSubstr("value 0 is out of range [1,"));
  EXPECT_EQ(zero->where().key_path, "layers[0].k");
  EXPECT_EQ(error_key_path("{op: conv2d, c: 3, h: -8, w: 8, k: 4, r: 3, s: 3}"), "layers[0].h");
  EXPECT_EQ(error_key_path("{op: conv2d, c: 3, h: 8, w: 8, k: 4, r: 3, s: 3, pad: -1}"),
            "layers[0].pad");
}

TEST(LayerList, MissingRequiredKeyIsNamed) {
  auto error = layer_error("{name: c, op: conv2d, c: 3, h: 8, w: 8, r: 3, s: 3}");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "missing required key 'k'");
  EXPECT_EQ(error->where().key_path, "layers[0]");
  auto no_op = layer_error("{name: c, m: 1}");
  ASSERT_TRUE(no_op);
  EXPECT_EQ(no_op->message(), "missing required key 'op'");
}

TEST(LayerList, FilterBiggerThanPaddedInputIsRejectedAtTheFilterKey) {
  auto error = layer_error("{op: conv2d, c: 3, h: 4, w: 8, k: 4, r: 7, s: 3, pad: 1}");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "filter height r=7 is larger than the padded input height 6");
  EXPECT_EQ(error->where().key_path, "layers[0].r");
  EXPECT_EQ(error_key_path("{op: conv2d, c: 3, h: 8, w: 2, k: 4, r: 3, s: 3}"), "layers[0].s");
}

TEST(LayerList, ChannelsNotDivisibleByGroupsIsRejectedAtGroups) {
  auto error = layer_error("{op: conv2d, c: 6, h: 8, w: 8, k: 8, r: 3, s: 3, groups: 4}");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "channels c=6 are not divisible by groups=4");
  EXPECT_EQ(error->where().key_path, "layers[0].groups");
  auto filters = layer_error("{op: conv2d, c: 8, h: 8, w: 8, k: 6, r: 3, s: 3, groups: 4}");
  ASSERT_TRUE(filters);
  EXPECT_THAT(filters->message(), HasSubstr("filters k=6"));
}

TEST(LayerList, StrideAndStrideHTogetherAreAmbiguous) {
  auto error =
      layer_error("{op: conv2d, c: 3, h: 8, w: 8, k: 4, r: 3, s: 3, stride: 2, stride_w: 1}");
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("either 'stride' or 'stride_h'/'stride_w'"));
  EXPECT_EQ(error->where().key_path, "layers[0].stride_w");
}

TEST(LayerList, UnknownOpListsEveryOpALayerListAccepts) {
  auto error = layer_error("{name: emb, op: embedding, rows: 4, cols: 8}");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(),
            "invalid value 'embedding' for 'op' (allowed: gemm, conv2d, attention, layernorm, "
            "rmsnorm, softmax, elementwise, reduce, pool)");
  EXPECT_EQ(error->where().key_path, "layers[0].op");
}

TEST(LayerList, MisspelledOpSuggestsTheSupportedOne) {
  auto error = layer_error("{op: gemn, m: 1, n: 1, k: 1}");
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("did you mean 'gemm'?"));
}

TEST(LayerList, UnknownDtypeListsTheAllowedOnes) {
  auto error = layer_error("{op: gemm, m: 1, n: 1, k: 1, dtype: float8}");
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("allowed: int8, int16, int32, fp16, bf16, fp32"));
  EXPECT_EQ(error->where().key_path, "layers[0].dtype");
}

TEST(LayerList, DuplicateLayerNamesAreRejectedAtTheSecond) {
  auto error = capture_error([] {
    from_text(
        "layers:\n  - {name: a, op: gemm, m: 1, n: 1, k: 1}\n"
        "  - {name: a, op: gemm, m: 2, n: 2, k: 2}\n");
  });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "duplicate layer name 'a'");
  EXPECT_EQ(error->where().key_path, "layers[1].name");
  EXPECT_EQ(error->where().line, 3);
}

TEST(LayerList, ARepeatedLayerIsNumberedCopiesReadingOneSetOfOperands) {
  const ir::Graph graph = from_text("layers:\n  - {name: g, op: gemm, m: 2, n: 3, k: 4, repeat: 3}\n");
  const std::vector<ir::NodeId> ops = graph.topological_ops();
  ASSERT_EQ(ops.size(), 3u);
  const std::vector<ir::NodeId> operands = graph.inputs_of(ops[0]);
  const std::string first_result = graph.tensor(graph.outputs_of(ops[0])[0]).name;
  EXPECT_EQ(first_result, "g.1.out");
  for (std::size_t copy = 0; copy < ops.size(); ++copy) {
    EXPECT_EQ(graph.op(ops[copy]).name, "g." + std::to_string(copy + 1));
    EXPECT_EQ(graph.inputs_of(ops[copy]), operands);
    const ir::Tensor& result = graph.tensor(graph.outputs_of(ops[copy])[0]);
    EXPECT_EQ(result.shape, (std::vector<int64_t>{1, 2, 3}));
    EXPECT_EQ(result.storage_of, copy == 0 ? "" : first_result);
  }
  // Two operands and three results: no operand per copy.
  EXPECT_EQ(graph.node_count(), 3u + 2u + 3u);
}

TEST(LayerList, RepeatOutsideItsRangeOrACopyNameTakenIsRejected) {
  EXPECT_EQ(error_key_path("{name: g, op: gemm, m: 1, n: 1, k: 1, repeat: 0}"), "layers[0].repeat");
  EXPECT_EQ(error_key_path("{name: g, op: gemm, m: 1, n: 1, k: 1, repeat: 65537}"),
            "layers[0].repeat");
  auto error = capture_error([] {
    from_text(
        "layers:\n  - {name: g.2, op: gemm, m: 1, n: 1, k: 1}\n"
        "  - {name: g, op: gemm, m: 2, n: 2, k: 2, repeat: 2}\n");
  });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "duplicate layer name 'g.2'");
  EXPECT_EQ(error->where().key_path, "layers[1].name");
}

TEST(LayerList, EmptyListIsRejected) {
  auto error = capture_error([] { from_text("layers: []\n"); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "the layer list is empty");
  EXPECT_EQ(error->where().key_path, "layers");
}

TEST(LayerList, MissingLayersAndUnknownTopLevelKeysAreRejected) {
  auto missing = capture_error([] { from_text("name: x\n"); });
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->message(), "missing required key 'layers'");
  auto unknown =
      capture_error([] { from_text("layer: []\nlayers: [{op: gemm, m: 1, n: 1, k: 1}]\n"); });
  ASSERT_TRUE(unknown);
  EXPECT_EQ(unknown->message(), "unknown key 'layer'; did you mean 'layers'?");
}

TEST(LayerList, LayerThatIsNotAMapIsRejected) {
  auto error = capture_error([] { from_text("layers: [gemm]\n"); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->where().key_path, "layers[0]");
  EXPECT_THAT(error->message(), HasSubstr("expected a map"));
}

}  // namespace
}  // namespace polyarch::frontend

namespace polyarch::frontend {
namespace {

TEST(LayerList, SizesWhoseCountsOverflowNameTheLayer) {
  auto error = capture_error([&] {
    from_text(
        "layers:\n  - {name: big, op: gemm, m: 1000000000000, n: 1000000000000, "
        "k: 1000000000000}\n");
  });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->kind(), ErrorKind::kBadInput);
  EXPECT_EQ(error->where().line, 2);
  EXPECT_THAT(error->message(), ::testing::HasSubstr("op 'big'"));
  EXPECT_THAT(error->message(), ::testing::HasSubstr("overflow"));
}

}  // namespace
}  // namespace polyarch::frontend

namespace polyarch::frontend {
namespace {

// The attributes of the only op of a one-layer list.
template <typename Attrs>
Attrs single_layer_attrs(const std::string& layer_map) {
  const ir::Graph graph = from_text("layers:\n  - " + layer_map + "\n");
  const auto ops = graph.topological_ops();
  EXPECT_EQ(ops.size(), 1u);
  return std::get<Attrs>(graph.op(ops.front()).attrs);
}

TEST(LayerListOps, AttentionDefaultsToOneSequenceFullHeadsAndSelfAttention) {
  const auto attention =
      single_layer_attrs<ir::AttentionAttrs>("{name: attn, op: attention, h: 12, s: 512, d: 64}");
  EXPECT_EQ(ir::op_attributes_text(attention), "b=1 h=12 kv_heads=12 s=512 kv_len=512 d=64");
  EXPECT_FALSE(attention.causal);
}

TEST(LayerListOps, AttentionReadsGroupedQueryDecodeWithCausalMask) {
  const auto attention = single_layer_attrs<ir::AttentionAttrs>(
      "{op: attention, b: 4, h: 32, kv_heads: 8, s: 1, kv_len: 1024, d: 128, causal: true}");
  EXPECT_EQ(ir::op_attributes_text(attention), "b=4 h=32 kv_heads=8 s=1 kv_len=1024 d=128 causal");
  EXPECT_TRUE(attention.causal);
}

// The library kernel is software the workload states: flash3 (the default, printed as nothing)
// or flash2; another name is refused at its key, listing both.
TEST(LayerListOps, AttentionStatesItsLibraryKernel) {
  const auto stated = single_layer_attrs<ir::AttentionAttrs>(
      "{op: attention, h: 16, s: 4096, d: 128, kernel: flash2}");
  EXPECT_EQ(stated.kernel, ir::AttentionKernel::kFlash2);
  EXPECT_EQ(ir::op_attributes_text(stated),
            "b=1 h=16 kv_heads=16 s=4096 kv_len=4096 d=128 kernel=flash2");
  const auto unstated =
      single_layer_attrs<ir::AttentionAttrs>("{op: attention, h: 16, s: 4096, d: 128}");
  EXPECT_EQ(unstated.kernel, ir::AttentionKernel::kFlash3);
  const std::optional<Error> error =
      layer_error("{op: attention, h: 16, s: 4096, d: 128, kernel: flash4}");
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("'flash4'"));
  EXPECT_THAT(error->message(), HasSubstr("flash3, flash2"));
  EXPECT_EQ(error->where().to_string().substr(0, 9), "w.yaml:2:");
  EXPECT_EQ(error->where().key_path, "layers[0].kernel");
}

TEST(LayerListOps, AttentionCountsTwoMatmulsOfBHSKvLenDAndACausalMaskSkipsMaskedScores) {
  // Causal: the 16 queries are the last of 48 positions; query i sees 32 + i + 1 keys.
  for (const bool causal : {false, true}) {
    const ir::Graph graph = from_text(
        "layers: [{name: attn, op: attention, b: 2, h: 8, kv_heads: 2, s: 16, "
        "kv_len: 48, d: 32, causal: " +
        std::string(causal ? "true" : "false") + "}]");
    const ir::Op& op = graph.op(graph.topological_ops().front());
    const int64_t visible = causal ? int64_t{16} * 32 + 16 * 17 / 2 : int64_t{16} * 48;
    const int64_t matmul_macs = int64_t{2} * 8 * visible * 32;  // b*h*visible*d
    const int64_t scores = int64_t{2} * 8 * visible;
    EXPECT_EQ(ir::mac_count(op), 2 * matmul_macs) << "causal=" << causal;
    // 2 FLOPs per MAC, then a scale and a 5-FLOP softmax on every score.
    EXPECT_EQ(ir::flop_count(op), 4 * matmul_macs + 6 * scores) << "causal=" << causal;
  }
}

// Causal window 4 over 16 queries at the end of 48 positions: every query sees 4 keys.
TEST(LayerListOps, AttentionWindowLimitsTheKeysEachQuerySees) {
  const auto attention = single_layer_attrs<ir::AttentionAttrs>(
      "{op: attention, h: 8, s: 16, kv_len: 48, d: 32, causal: true, window: 4}");
  EXPECT_EQ(attention.window, 4);
  EXPECT_EQ(ir::op_attributes_text(attention),
            "b=1 h=8 kv_heads=8 s=16 kv_len=48 d=32 causal window=4");
  const ir::Op op{"attn", attention, ir::DType::kFp16, {}};
  EXPECT_EQ(ir::mac_count(op), int64_t{2} * 8 * 16 * 4 * 32);
}

TEST(LayerListOps, AttentionWindowErrorsPointAtTheWindowKey) {
  auto error = layer_error("{name: a, op: attention, h: 2, s: 8, kv_len: 4, d: 4, window: 2}");
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("s=8 exceeds kv_len=4"));
  EXPECT_THAT(error->where().to_string(), HasSubstr("layers[0].window"));
  error = layer_error("{name: a, op: attention, h: 2, s: 8, d: 4, window: 0}");
  ASSERT_TRUE(error);
  EXPECT_THAT(error->where().to_string(), HasSubstr("layers[0].window"));
}

// BigBird over 96 positions in blocks of 32: 3 x 3 blocks; local 1 (its own block), global 1:
//   row 0 (global) sees all three, rows 1 and 2 block 0 and their own; random 0.
// 7 cells of 32 x 32 scores, not causal.
TEST(LayerListOps, BlockSparseKeyGivesABigBirdLayout) {
  const auto attention = single_layer_attrs<ir::AttentionAttrs>(
      "{op: attention, h: 2, s: 96, d: 16, block_sparse: {block: 32, local: 1, global: 1}}");
  ASSERT_TRUE(attention.block_sparse);
  EXPECT_EQ(ir::op_attributes_text(attention),
            "b=1 h=2 kv_heads=2 s=96 kv_len=96 d=16 block=32 local=1 global=1 random=0 seed=0");
  const ir::Op op{"attn", attention, ir::DType::kFp16, {}};
  EXPECT_EQ(ir::mac_count(op), int64_t{2} * 2 * 7 * 32 * 32 * 16);  // 2 products x b*h x scores x d
}

TEST(LayerListOps, BlockSparseWithAWindowIsRefusedAtTheKey) {
  const auto error = layer_error(
      "{name: a, op: attention, h: 2, s: 64, d: 4, window: 8, block_sparse: {block: 16}}");
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("block-sparse pattern and a sliding window"));
  EXPECT_THAT(error->where().to_string(), HasSubstr("layers[0].block_sparse"));
}

// 16384 tokens in blocks of 1 would be 16384^2 = 2^28 cells, more than the 2^26 held.
TEST(LayerListOps, ABlockLayoutTooFineToHoldIsRefusedAtTheKey) {
  const auto error = layer_error(
      "{name: a, op: attention, h: 2, s: 16384, d: 4, block_sparse: {block: 1, local: 3}}");
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("16384 x 16384 blocks of 1 tokens"));
  EXPECT_THAT(error->where().to_string(), HasSubstr("layers[0].block_sparse"));
}

// A bool .npy of `rows` x `columns` cells, written byte by byte (numpy.lib.format 1.0).
void write_bool_npy(const std::filesystem::path& path, int64_t rows, int64_t columns,
                    const std::vector<uint8_t>& cells) {
  std::string header = "{'descr': '|b1', 'fortran_order': False, 'shape': (" +
                       std::to_string(rows) + ", " + std::to_string(columns) + "), }";
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  out << "\x93NUMPY" << char{1} << char{0} << static_cast<char>(header.size() & 0xff)
      << static_cast<char>(header.size() >> 8) << header;
  for (uint8_t cell : cells) out << static_cast<char>(cell);
}

// A layer list beside its mask file: the path is relative to the list.
std::filesystem::path masked_list(const std::string& name, const std::string& mask_file) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("polyarch_" + name);
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "list.yaml")
      << "layers:\n  - {name: attn, op: attention, h: 2, s: 96, d: 16, block: 32, "
         "block_mask: "
      << mask_file << "}\n";
  return dir;
}

// 3 x 3 blocks of 32: row 0 sees block 0, row 1 blocks 0 and 1, row 2 blocks 1 and 2.
TEST(LayerListOps, BlockMaskFileIsReadRelativeToTheList) {
  const std::filesystem::path dir = masked_list("block_mask_ok", "mask.npy");
  write_bool_npy(dir / "mask.npy", 3, 3, {1, 0, 0, 1, 1, 0, 0, 1, 1});
  const ir::Graph graph = load_layer_list(dir / "list.yaml");
  const ir::Op& op = op_named(graph, "attn");
  EXPECT_THAT(ir::op_attributes_text(op.attrs), HasSubstr(" block=32 block_mask=8.c.6"));
  EXPECT_EQ(ir::mac_count(op), int64_t{2} * 2 * 5 * 32 * 32 * 16);
  std::filesystem::remove_all(dir);
}

TEST(LayerListOps, ABadBlockMaskFileIsNamedWithItsKey) {
  const std::filesystem::path dir = masked_list("block_mask_bad", "mask.npy");
  write_bool_npy(dir / "mask.npy", 2, 3, {1, 0, 0, 1, 1, 0});
  auto error = capture_error([&] { load_layer_list(dir / "list.yaml"); });
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("mask.npy"));
  EXPECT_THAT(error->message(), HasSubstr("is 2 x 3; the op needs 3 x 3"));
  EXPECT_THAT(error->where().to_string(), HasSubstr("list.yaml:2:"));
  EXPECT_THAT(error->where().to_string(), HasSubstr("layers[0].block_mask"));
  std::filesystem::remove(dir / "mask.npy");
  error = capture_error([&] { load_layer_list(dir / "list.yaml"); });
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("mask.npy"));
  EXPECT_THAT(error->where().to_string(), HasSubstr("layers[0].block_mask"));
  std::filesystem::remove_all(dir);
}

TEST(LayerListOps, KvHeadsNotDividingHeadsIsRejectedAtKvHeads) {
  auto error = layer_error("{name: a, op: attention, h: 12, kv_heads: 5, s: 8, d: 4}");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "heads h=12 are not divisible by kv_heads=5");
  EXPECT_EQ(error->where().to_string(), "w.yaml:2:47: layers[0].kv_heads");
}

TEST(LayerListOps, NormsReadRowsAndColsWithTheirKind) {
  const auto layer_norm =
      single_layer_attrs<ir::NormAttrs>("{op: layernorm, rows: 512, cols: 768}");
  EXPECT_EQ(layer_norm.kind, ir::NormKind::kLayerNorm);
  EXPECT_EQ(layer_norm.rows, 512);
  EXPECT_EQ(layer_norm.cols, 768);
  const auto rms_norm = single_layer_attrs<ir::NormAttrs>("{op: rmsnorm, rows: 4, cols: 4096}");
  EXPECT_EQ(rms_norm.kind, ir::NormKind::kRmsNorm);
  EXPECT_EQ(rms_norm.cols, 4096);
  auto missing = layer_error("{op: rmsnorm, rows: 4}");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->message(), "missing required key 'cols'");
}

TEST(LayerListOps, SoftmaxReadsRowsAndCols) {
  const auto softmax = single_layer_attrs<ir::SoftmaxAttrs>("{op: softmax, rows: 6144, cols: 512}");
  EXPECT_EQ(softmax.rows, 6144);
  EXPECT_EQ(softmax.cols, 512);
}

TEST(LayerListOps, ElementwiseInputsDefaultToTwoForBinaryFunctionsElseOne) {
  const auto add =
      single_layer_attrs<ir::ElementwiseAttrs>("{op: elementwise, fn: add, elements: 8}");
  EXPECT_EQ(add.fn, "add");
  EXPECT_EQ(add.elements, 8);
  EXPECT_EQ(add.inputs, 2);
  for (const std::string fn : {"sub", "mul", "div"}) {
    EXPECT_EQ(
        single_layer_attrs<ir::ElementwiseAttrs>("{op: elementwise, fn: " + fn + ", elements: 8}")
            .inputs,
        2)
        << fn;
  }
  for (const std::string fn :
       {"relu", "gelu", "silu", "sigmoid", "tanh", "exp", "erf", "sqrt", "copy"}) {
    EXPECT_EQ(
        single_layer_attrs<ir::ElementwiseAttrs>("{op: elementwise, fn: " + fn + ", elements: 8}")
            .inputs,
        1)
        << fn;
  }
  // A bias add reads one full-size operand; the broadcast bias is read once.
  EXPECT_EQ(
      single_layer_attrs<ir::ElementwiseAttrs>("{op: elementwise, fn: add, elements: 8, inputs: 1}")
          .inputs,
      1);
}

TEST(LayerListOps, UnknownElementwiseFunctionSuggestsTheNearest) {
  auto error = layer_error("{op: elementwise, fn: gleu, elements: 8}");
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("invalid value 'gleu' for 'fn'; did you mean 'gelu'?"));
  EXPECT_EQ(error->where().to_string(), "w.yaml:2:27: layers[0].fn");
  auto missing = layer_error("{op: elementwise, elements: 8}");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->message(), "missing required key 'fn'");
}

TEST(LayerListOps, ReduceDefaultsToSum) {
  const auto sum = single_layer_attrs<ir::ReduceAttrs>("{op: reduce, rows: 16, cols: 1024}");
  EXPECT_EQ(sum.fn, "sum");
  EXPECT_EQ(sum.rows, 16);
  EXPECT_EQ(sum.cols, 1024);
  EXPECT_EQ(single_layer_attrs<ir::ReduceAttrs>("{op: reduce, rows: 1, cols: 2, fn: mean}").fn,
            "mean");
  EXPECT_EQ(single_layer_attrs<ir::ReduceAttrs>("{op: reduce, rows: 1, cols: 2, fn: max}").fn,
            "max");
  EXPECT_EQ(error_key_path("{op: reduce, rows: 1, cols: 2, fn: median}"), "layers[0].fn");
}

TEST(LayerListOps, PoolDefaultsToOneImageUnitStrideNoPadAndMax) {
  const auto pool =
      single_layer_attrs<ir::PoolAttrs>("{op: pool, c: 64, h: 112, w: 112, r: 3, s: 3}");
  EXPECT_EQ(pool.n, 1);
  EXPECT_EQ(pool.c, 64);
  EXPECT_EQ(ir::op_attributes_text(pool), "max window=3x3 stride=1 pad=0");
  const auto average = single_layer_attrs<ir::PoolAttrs>(
      "{op: pool, n: 2, c: 8, h: 7, w: 7, r: 7, s: 7, stride: 7, pad: 0, kind: avg}");
  EXPECT_EQ(average.n, 2);
  EXPECT_EQ(ir::op_attributes_text(average), "avg window=7x7 stride=7 pad=0");
}

TEST(LayerListOps, PoolWindowBiggerThanPaddedInputIsRejectedAtTheWindowKey) {
  auto error = layer_error("{op: pool, c: 8, h: 4, w: 8, r: 7, s: 3, pad: 1}");
  ASSERT_TRUE(error);
  EXPECT_EQ(error->message(), "window height r=7 is larger than the padded input height 6");
  EXPECT_EQ(error->where().to_string(), "w.yaml:2:37: layers[0].r");
  EXPECT_EQ(error_key_path("{op: pool, c: 8, h: 8, w: 2, r: 3, s: 3}"), "layers[0].s");
  EXPECT_EQ(error_key_path("{op: pool, c: 8, h: 8, w: 8, r: 2, s: 2, kind: global}"),
            "layers[0].kind");
}

TEST(LayerListOps, EachKindReadsItsOwnOperandsAndHasAShapedResult) {
  const ir::Graph graph = from_text(
      "layers:\n"
      "  - {name: attn, op: attention, h: 4, kv_heads: 2, s: 8, kv_len: 16, d: 32, causal: "
      "true}\n"
      "  - {name: ln, op: layernorm, rows: 8, cols: 128, dtype: bf16}\n"
      "  - {name: rms, op: rmsnorm, rows: 8, cols: 128}\n"
      "  - {name: sm, op: softmax, rows: 32, cols: 16}\n"
      "  - {name: act, op: elementwise, fn: silu, elements: 1024}\n"
      "  - {name: residual, op: elementwise, fn: add, elements: 1024}\n"
      "  - {name: red, op: reduce, rows: 8, cols: 128, fn: mean}\n"
      "  - {name: pool, op: pool, c: 64, h: 112, w: 112, r: 3, s: 3, stride: 2, pad: 1}\n");
  EXPECT_EQ(print_graph(graph),
            "graph \"fallback\"\n"
            "input %attn.q[1,4,8,32]:int8\n"
            "input %attn.k[1,2,16,32]:int8\n"
            "input %attn.v[1,2,16,32]:int8\n"
            "input %ln.in[8,128]:bf16\n"
            "weight %ln.scale[128]:bf16\n"
            "weight %ln.bias[128]:bf16\n"
            "input %rms.in[8,128]:int8\n"
            "weight %rms.scale[128]:int8\n"
            "input %sm.in[32,16]:int8\n"
            "input %act.in[1024]:int8\n"
            "input %residual.in0[1024]:int8\n"
            "input %residual.in1[1024]:int8\n"
            "input %red.in[8,128]:int8\n"
            "input %pool.in[1,64,112,112]:int8\n"
            "%attn = attention(%attn.q[1,4,8,32], %attn.k[1,2,16,32], %attn.v[1,2,16,32]) b=1 h=4 "
            "kv_heads=2 s=8 kv_len=16 d=32 causal -> %attn.out[1,4,8,32]:int8 native\n"
            "%ln = norm(%ln.in[8,128], %ln.scale[128], %ln.bias[128]) layernorm rows=8 cols=128 -> "
            "%ln.out[8,128]:bf16 bf16\n"
            "%rms = norm(%rms.in[8,128], %rms.scale[128]) rmsnorm rows=8 cols=128 -> "
            "%rms.out[8,128]:int8 native\n"
            "%sm = softmax(%sm.in[32,16]) rows=32 cols=16 -> %sm.out[32,16]:int8 native\n"
            "%act = elementwise(%act.in[1024]) fn=silu elements=1024 inputs=1 -> "
            "%act.out[1024]:int8 native\n"
            "%residual = elementwise(%residual.in0[1024], %residual.in1[1024]) fn=add "
            "elements=1024 inputs=2 -> %residual.out[1024]:int8 native\n"
            "%red = reduce(%red.in[8,128]) fn=mean rows=8 cols=128 -> %red.out[8]:int8 native\n"
            "%pool = pool(%pool.in[1,64,112,112]) n=1 c=64 h=112 w=112 max window=3x3 stride=2 "
            "pad=1 -> %pool.out[1,64,56,56]:int8 native\n"
            "output %attn.out, %ln.out, %rms.out, %sm.out, %act.out, %residual.out, %red.out, "
            "%pool.out\n");
}

TEST(LayerListOps, TransformerLayerWorkloadHasTheMacsOfItsGemmOnlyForm) {
  const ir::Graph kernels =
      load_layer_list(source_path("workloads/kernels_transformer_layer.yaml"));
  const ir::Graph gemms = load_layer_list(source_path("workloads/bert_base_gemms.yaml"));
  EXPECT_EQ(kernels.op_count(), 10u);
  std::map<ir::OpKind, int> kinds;
  int64_t kernel_macs = 0;
  for (ir::NodeId id : kernels.topological_ops()) {
    ++kinds[kernels.op(id).kind()];
    kernel_macs += ir::mac_count(kernels.op(id));
    for (ir::NodeId output : kernels.outputs_of(id)) {
      EXPECT_TRUE(kernels.tensor(output).shape_known()) << kernels.op(id).name;
    }
  }
  EXPECT_EQ(kinds[ir::OpKind::kGemm], 4);
  EXPECT_EQ(kinds[ir::OpKind::kAttention], 1);
  EXPECT_EQ(kinds[ir::OpKind::kElementwise], 3);
  EXPECT_EQ(kinds[ir::OpKind::kNorm], 2);
  int64_t gemm_macs = 0;
  for (ir::NodeId id : gemms.topological_ops()) gemm_macs += ir::mac_count(gemms.op(id));
  EXPECT_EQ(kernel_macs, gemm_macs);
  EXPECT_EQ(kernel_macs, int64_t{4026531840});
}

}  // namespace
}  // namespace polyarch::frontend
