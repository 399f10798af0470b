// The text IR reads back what it printed: print(parse(print(g))) == print(g) for every shipped
// workload, as imported and after the standard pipeline, and a graph read back costs what the
// source model costs (MACs, FLOPs, bytes, parameters from the op cost model).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "compiler/frontend/workload_loader.h"
#include "compiler/ir/ir_parser.h"
#include "compiler/lower/op_table.h"
#include "compiler/lower/pipeline.h"
#include "tests/base/error_capture.h"

namespace polyarch::ir {
namespace {

namespace fs = std::filesystem;

// Every workload the repository ships, and the ONNX exports in tests/data/onnx (copies of the
// real exports, with their provenance).
std::vector<fs::path> shipped_workloads() {
  std::vector<fs::path> paths;
  const fs::path source(POLYARCH_SOURCE_DIR);
  for (const char* folder : {"workloads", "workloads/models", "tests/data/onnx"}) {
    for (const auto& entry : fs::directory_iterator(source / folder)) {
      const std::string extension = entry.path().extension().string();
      if (extension == ".yaml" || extension == ".csv" || extension == ".onnx") {
        paths.push_back(entry.path());
      }
    }
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

void expect_same_totals(const Graph& source, const Graph& read_back, const fs::path& path) {
  const lower::GraphTotals expected = lower::graph_totals(source);
  const lower::GraphTotals actual = lower::graph_totals(read_back);
  EXPECT_EQ(actual.ops, expected.ops) << path;
  EXPECT_EQ(actual.macs, expected.macs) << path;
  EXPECT_EQ(actual.flops, expected.flops) << path;
  EXPECT_EQ(actual.bytes, expected.bytes) << path;
  EXPECT_EQ(actual.parameters, expected.parameters) << path;
}

void expect_round_trip(const Graph& graph, const fs::path& path, const std::string& stage) {
  const std::string printed = print_graph(graph);
  const Graph read_back = parse_ir(printed, path.stem().string() + ".ir");
  EXPECT_EQ(print_graph(read_back), printed) << path << " " << stage;
  expect_same_totals(graph, read_back, path);
  EXPECT_EQ(read_back.name(), graph.name()) << path;
}

TEST(IrRoundTrip, EveryShippedWorkloadReadsBackAsPrintedAndCostsTheSameAfterVerifiedPasses) {
  const std::vector<fs::path> paths = shipped_workloads();
  ASSERT_GE(paths.size(), 15u);  // the repository's workloads at least
  for (const fs::path& path : paths) {
    SCOPED_TRACE(path.string());
    Graph graph = frontend::load_workload(path);
    expect_round_trip(graph, path, "as imported");
    if (!lower::needs_lowering(graph)) continue;
    lower::PipelineOptions options;
    options.allow_unknown = path.stem() == "unknown_op";
    // With the verifier after every pass: no pass breaks an invariant on a shipped model.
    passes::PassManager pipeline = lower::standard_pipeline(options);
    pipeline.verify_each(true);
    pipeline.run(graph);
    expect_round_trip(graph, path, "compiled");
  }
}

// An imported model printed before any pass compiles, once read back, to the same costs:
// what the passes need (shapes, constants of shape chains and patterns, opsets) survives.
TEST(IrRoundTrip, ImportedTinyCnnCompiledFromTheTextCostsWhatTheModelCosts) {
  const fs::path path = fs::path(POLYARCH_SOURCE_DIR) / "tests/data/onnx/tiny_cnn.onnx";
  Graph source = frontend::load_workload(path);
  Graph from_text = parse_ir(print_graph(source), "tiny_cnn.ir");
  lower::standard_pipeline().run(source);
  lower::standard_pipeline().run(from_text);
  expect_same_totals(source, from_text, path);
  EXPECT_EQ(print_graph(from_text), print_graph(source));
}

// A 2x3 by 3x4 product: 2*3*4 = 24 MACs, 2 FLOPs each; fp16 elements read (2*3 + 3*4) and
// written (2*4), 2 bytes each: 52 bytes.
TEST(IrRoundTrip, HandWrittenGemmCostsItsHandDerivedMacsAndBytes) {
  const Graph graph = parse_ir(
      "graph \"tiny\"\n"
      "input %a[2,3]:fp16\n"
      "weight %b[3,4]:fp16\n"
      "%mm = gemm(%a[2,3], %b[3,4]) m=2 n=4 k=3 batch=1 -> %c[1,2,4]:fp16 fp16\n"
      "output %c\n",
      "tiny.ir");
  const lower::GraphTotals totals = lower::graph_totals(graph);
  EXPECT_EQ(totals.macs, 24);
  EXPECT_EQ(totals.flops, 48);
  EXPECT_EQ(totals.bytes, (2 * 3 + 3 * 4 + 2 * 4) * 2);
  EXPECT_EQ(totals.parameters, 12);
}

// Block-sparse attention reads back as printed: BigBird as its parameters, an explicit mask as
// hex rows. The mask: 64 positions in blocks of 16, row r sees blocks 0..r (1000, 1100, 1110,
// 1111 -> 8, c, e, f), not causal: 10 cells of 16 x 16 scores, 2 products x d = 8 MACs each.
TEST(IrRoundTrip, BlockSparseAttentionReadsBackAsPrinted) {
  const std::string text =
      "graph \"sparse\"\n"
      "input %q[1,1,64,8]:fp16\n"
      "input %k[1,1,64,8]:fp16\n"
      "input %v[1,1,64,8]:fp16\n"
      "%bigbird = attention(%q[1,1,64,8], %k[1,1,64,8], %v[1,1,64,8]) b=1 h=1 kv_heads=1 s=64 "
      "kv_len=64 d=8 causal block=16 local=3 global=1 random=1 seed=7 -> %y[1,1,64,8]:fp16 fp16\n"
      "%masked = attention(%y[1,1,64,8], %k[1,1,64,8], %v[1,1,64,8]) b=1 h=1 kv_heads=1 s=64 "
      "kv_len=64 d=8 block=16 block_mask=8.c.e.f -> %z[1,1,64,8]:fp16 fp16\n"
      "output %z\n";
  const Graph graph = parse_ir(text, "sparse.ir");
  EXPECT_EQ(print_graph(graph), text);
  EXPECT_EQ(mac_count(graph.op(graph.topological_ops().back())), 10 * 16 * 16 * 2 * 8);
}

// A stated attention kernel reads back as printed; an unknown one is named with its line.
TEST(IrRoundTrip, AStatedAttentionKernelReadsBackAndAnUnknownOneIsNamed) {
  const std::string op = "%a = attention(%q[1,1,64,8], %q[1,1,64,8], %q[1,1,64,8]) b=1 h=1 "
                         "kv_heads=1 s=64 kv_len=64 d=8 kernel=flash2 -> %z[1,1,64,8]:fp16 fp16";
  const std::string text = "graph \"fa2\"\ninput %q[1,1,64,8]:fp16\n" + op + "\noutput %z\n";
  const Graph graph = parse_ir(text, "fa2.ir");
  EXPECT_EQ(print_graph(graph), text);
  EXPECT_EQ(std::get<AttentionAttrs>(graph.op(graph.topological_ops().front()).attrs).kernel,
            AttentionKernel::kFlash2);
  std::string unknown = text;
  unknown.replace(unknown.find("flash2"), 6, "flash9");
  const auto error = testing::capture_error([&] { parse_ir(unknown, "fa2.ir"); });
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), ::testing::HasSubstr("kernel"));
  EXPECT_THAT(error->message(), ::testing::HasSubstr("flash3 or flash2"));
  EXPECT_THAT(error->where().to_string(), ::testing::HasSubstr("fa2.ir:3:"));
}

// GELU's tanh form reads back as printed; another form, or the form on another function, is
// named with its line.
TEST(IrRoundTrip, GeluTanhFormReadsBackAndIsRefusedElsewhere) {
  const std::string text = "graph \"gelu\"\ninput %x[4]:fp32\n"
                           "%g = elementwise(%x[4]) fn=gelu elements=4 inputs=1 approximate=tanh -> "
                           "%y[4]:fp32 fp32\noutput %y\n";
  const Graph graph = parse_ir(text, "gelu.ir");
  EXPECT_EQ(print_graph(graph), text);
  EXPECT_TRUE(
      std::get<ElementwiseAttrs>(graph.op(graph.topological_ops().front()).attrs).approximate_tanh);
  std::string other_form = text;
  other_form.replace(other_form.find("=tanh"), 5, "=sigm");
  const auto form_error = testing::capture_error([&] { parse_ir(other_form, "gelu.ir"); });
  ASSERT_TRUE(form_error);
  EXPECT_THAT(form_error->message(), ::testing::HasSubstr("approximate"));
  EXPECT_THAT(form_error->where().to_string(), ::testing::HasSubstr("gelu.ir:3:"));
  std::string relu = text;
  relu.replace(relu.find("fn=gelu"), 7, "fn=relu");
  const auto relu_error = testing::capture_error([&] { parse_ir(relu, "gelu.ir"); });
  ASSERT_TRUE(relu_error);
  EXPECT_THAT(relu_error->message(), ::testing::HasSubstr("approximate=tanh is a form of gelu"));
}

TEST(IrRoundTrip, ABlockMaskOfTheWrongSizeIsNamed) {
  const auto error = testing::capture_error([] {
    parse_ir(
        "graph \"sparse\"\n"
        "input %q[1,1,64,8]:fp16\n"
        "%a = attention(%q[1,1,64,8], %q[1,1,64,8], %q[1,1,64,8]) b=1 h=1 kv_heads=1 s=64 "
        "kv_len=64 d=8 block=16 block_mask=8.c.e -> %z[1,1,64,8]:fp16 fp16\n"
        "output %z\n",
        "sparse.ir");
  });
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(),
              ::testing::HasSubstr("'block_mask' must be 4 rows of 1 hex digits"));
  EXPECT_THAT(error->where().to_string(), ::testing::HasSubstr("sparse.ir:3:"));
}

TEST(IrRoundTrip, ABlockLayoutWithAWindowIsRefused) {
  const auto error = testing::capture_error([] {
    parse_ir(
        "graph \"sparse\"\n"
        "input %q[1,1,64,8]:fp16\n"
        "%a = attention(%q[1,1,64,8], %q[1,1,64,8], %q[1,1,64,8]) b=1 h=1 kv_heads=1 s=64 "
        "kv_len=64 d=8 causal window=8 block=16 local=3 -> %z[1,1,64,8]:fp16 fp16\n"
        "output %z\n",
        "sparse.ir");
  });
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), ::testing::HasSubstr("op 'a': a block-sparse pattern and a "
                                                     "sliding window together are not defined"));
}

}  // namespace
}  // namespace polyarch::ir
