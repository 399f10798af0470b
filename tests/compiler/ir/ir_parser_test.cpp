// parse_ir: what it builds from hand-written text, and the bad-input errors it raises (with
// file:line:col and what was expected) for malformed text.
#include "compiler/ir/ir_parser.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "compiler/frontend/workload_loader.h"
#include "tests/base/error_capture.h"

namespace polyarch::ir {
namespace {

using polyarch::testing::capture_error;
using ::testing::HasSubstr;

const Tensor& tensor_named(const Graph& graph, const std::string& name) {
  for (NodeId id = 0; id < graph.node_count(); ++id) {
    if (!graph.is_op(id) && graph.tensor(id).name == name) return graph.tensor(id);
  }
  throw std::runtime_error("no tensor " + name);
}

TEST(IrParser, ReadsDeclarationsOpsAttributesAndOutputs) {
  const Graph graph = parse_ir(
      "# a comment line\n"
      "graph \"conv net\"\n"
      "opset \"\" 13\n"
      "input %x[1,3,8,8]:fp32\n"
      "weight %w[4,3,3,3]:int8 elided\n"
      "weight %shape[2]:int64 {1,-1}\n"
      "%c = conv2d(%x[1,3,8,8], %w) n=1 c=3 h=8 w=8 k=4 window=3x3 stride=1x1 pad=1x1 groups=1 "
      "bias act=clip(max=6.0,min=0.0) -> %y[1,4,8,8]:fp32 int8 layout=nhwc sparsity=2:4 "
      "density=0.5 from onnx:Conv {group=1 pads=[1,1,1,1]}\n"
      "%r = onnx:Reshape(%y, %shape[2]) -> %z[?]:? native\n"
      "%clip = onnx:Clip(%z, _, %shape) -> %out[?]:fp32 native  # min omitted\n"
      "output %out\n",
      "net.ir");
  EXPECT_EQ(graph.name(), "conv net");
  ASSERT_EQ(graph.op_count(), 3u);
  const std::vector<NodeId> ops = graph.topological_ops();
  const Op& conv = graph.op(ops[0]);
  const auto& attrs = std::get<Conv2dAttrs>(conv.attrs);
  EXPECT_EQ(attrs.k, 4);
  EXPECT_EQ(attrs.r, 3);
  EXPECT_EQ(attrs.pad_w, 1);
  EXPECT_TRUE(attrs.bias);
  ASSERT_TRUE(attrs.activation);
  EXPECT_EQ(attrs.activation->fn, "clip");
  EXPECT_EQ(attrs.activation->params.at("max"), 6.0);
  EXPECT_EQ(conv.dtype, DType::kInt8);
  EXPECT_EQ(conv.layout, Layout::kNhwc);
  ASSERT_TRUE(conv.weight_sparsity);
  EXPECT_EQ(conv.weight_sparsity->n, 2);
  EXPECT_EQ(conv.weight_sparsity->density, 0.5);
  ASSERT_TRUE(conv.lowered_from);
  EXPECT_EQ(conv.lowered_from->op_type, "Conv");
  EXPECT_EQ(conv.lowered_from->opset, 13);
  EXPECT_EQ(conv.where.line, 7);
  const auto& clip = std::get<OnnxNodeAttrs>(graph.op(ops[2]).attrs);
  EXPECT_EQ(clip.omitted_inputs, std::vector<int64_t>{1});
  EXPECT_EQ(graph.inputs_of(ops[2]).size(), 2u);
  EXPECT_EQ(tensor_named(graph, "out").role, TensorRole::kOutput);
  EXPECT_EQ(tensor_named(graph, "w").role, TensorRole::kWeight);
  EXPECT_FALSE(tensor_named(graph, "z").dtype_known);
  EXPECT_FALSE(tensor_named(graph, "z").shape_known());
  const Tensor& shape = tensor_named(graph, "shape");
  ASSERT_TRUE(shape.has_data());
  ASSERT_EQ(shape.data->size(), 16u);  // two int64 values
  // The elided weight leaves the graph without values to compute with.
  EXPECT_FALSE(graph.functional_available());
  EXPECT_THAT(graph.functional_unavailable_reason(), HasSubstr("'w'"));
}

// A dense window writes no dilation; a dilated one reads back with its spacing.
TEST(IrParser, ConvDilationIsOptionalAndReadsBack) {
  const Graph graph = parse_ir(
      "graph \"atrous\"\n"
      "input %x[1,2,9,9]:fp32\n"
      "weight %w[2,2,3,3]:fp32 elided\n"
      "%c = conv2d(%x, %w) n=1 c=2 h=9 w=9 k=2 window=3x3 stride=1x1 pad=2x2 dilation=2x3 "
      "groups=1 -> %y[1,2,9,7]:fp32 fp32\n"
      "%d = conv2d(%y, %w) n=1 c=2 h=9 w=7 k=2 window=3x3 stride=1x1 pad=1x1 groups=1 "
      "-> %z[1,2,9,7]:fp32 fp32\n"
      "output %z\n",
      "atrous.ir");
  const std::vector<NodeId> ops = graph.topological_ops();
  const auto& dilated = std::get<Conv2dAttrs>(graph.op(ops[0]).attrs);
  EXPECT_EQ(dilated.dilation_h, 2);
  EXPECT_EQ(dilated.dilation_w, 3);
  EXPECT_EQ(dilated.out_w(), 7);
  EXPECT_EQ(std::get<Conv2dAttrs>(graph.op(ops[1]).attrs).dilation_w, 1);
}

TEST(IrParser, QuotedNamesKeepEveryCharacter) {
  const Graph graph = parse_ir(
      "input %\"a b[0]\"[2]:fp32\n"
      "%\"op \\\"1\\\"\" = elementwise(%\"a b[0]\"[2]) fn=relu elements=2 inputs=1 -> %y[2]:fp32 "
      "native\n",
      "q.ir");
  EXPECT_EQ(graph.op(graph.topological_ops()[0]).name, "op \"1\"");
  EXPECT_EQ(print_graph(parse_ir(print_graph(graph), "q.ir")), print_graph(graph));
}

TEST(IrParser, AStorageLineMakesATensorReuseAnEarlierOnesStorage) {
  const Graph graph = parse_ir(
      "input %x[4]:fp32\n"
      "%a = elementwise(%x) fn=relu elements=4 inputs=1 -> %y1[4]:fp32 native\n"
      "%b = elementwise(%x) fn=relu elements=4 inputs=1 -> %y2[4]:fp32 native\n"
      "output %y1, %y2\n"
      "storage %y2 = %y1\n",
      "s.ir");
  EXPECT_EQ(tensor_named(graph, "y2").storage_of, "y1");
  EXPECT_EQ(tensor_named(graph, "y1").storage_of, "");
  EXPECT_EQ(print_graph(parse_ir(print_graph(graph), "s.ir")), print_graph(graph));
}

struct MalformedCase {
  const char* name;
  const char* text;
  const char* location;  // "bad.ir:LINE:COL"
  const char* message;
};

class IrParserMalformed : public ::testing::TestWithParam<MalformedCase> {};

TEST_P(IrParserMalformed, IsABadInputErrorAtTheSpot) {
  const MalformedCase& test = GetParam();
  const std::optional<Error> error = capture_error([&] { parse_ir(test.text, "bad.ir"); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->kind(), ErrorKind::kBadInput);
  EXPECT_THAT(error->what(), HasSubstr(test.location));
  EXPECT_THAT(error->what(), HasSubstr(test.message));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, IrParserMalformed,
    ::testing::Values(
        MalformedCase{"unknown_op_type",
                      "input %x[2]:fp32\n%y = frobnicate(%x) -> %z[2]:fp32 native\n", "bad.ir:2:6",
                      "unknown op type 'frobnicate'"},
        MalformedCase{"undefined_tensor", "%y = onnx:Relu(%nowhere) -> %z[2]:fp32 native\n",
                      "bad.ir:1:16", "tensor '%nowhere' is used before it is defined"},
        MalformedCase{"shape_mismatch",
                      "input %x[2,3]:fp32\n%y = onnx:Relu(%x[3,2]) -> %z[2,3]:fp32 native\n",
                      "bad.ir:2:18", "written [3,2] but defined [2,3]"},
        MalformedCase{"duplicate_tensor", "input %x[2]:fp32\nweight %x[2]:fp32\n", "bad.ir:2:8",
                      "tensor '%x' is defined twice"},
        MalformedCase{"duplicate_op",
                      "input %x[2]:fp32\n%r = onnx:Relu(%x) -> %a[2]:fp32 native\n"
                      "%r = onnx:Relu(%x) -> %b[2]:fp32 native\n",
                      "bad.ir:3:1", "op '%r' is defined twice"},
        MalformedCase{"missing_arrow", "input %x[2]:fp32\n%r = onnx:Relu(%x) %a[2]:fp32\n",
                      "bad.ir:2:20", "expected an attribute or '->'"},
        MalformedCase{"unknown_gemm_attribute",
                      "input %a[2,3]:fp32\nweight %b[3,4]:fp32\n"
                      "%g = gemm(%a, %b) m=2 n=4 k=3 batch=1 tile=8 -> %c[1,2,4]:fp32 native\n",
                      "bad.ir:3:39", "unknown attribute 'tile' for gemm"},
        MalformedCase{
            "missing_gemm_attribute",
            "input %a[2,3]:fp32\n%g = gemm(%a) m=2 n=4 batch=1 -> %c[1,2,4]:fp32 native\n",
            "bad.ir:2:31", "gemm needs 'k='"},
        MalformedCase{
            "invalid_canonical_op",
            "input %a[2,3]:fp32\n%g = gemm(%a) m=0 n=4 k=3 batch=1 -> %c[0,4]:fp32 native\n",
            "bad.ir:2:1", "'g'"},
        MalformedCase{"unterminated_string", "graph \"net\n", "bad.ir:1:7", "unterminated string"},
        MalformedCase{"stray_character", "input %x[2]:fp32 ;\n", "bad.ir:1:18",
                      "unexpected character ';'"},
        MalformedCase{"bad_dimension", "input %x[2,a]:fp32\n", "bad.ir:1:12",
                      "expected a dimension, found 'a'"},
        MalformedCase{"unknown_dtype", "input %x[2]:fp33\n", "bad.ir:1:13",
                      "expected an element type"},
        MalformedCase{"value_count", "weight %s[3]:int64 {1,2}\n", "bad.ir:1:20",
                      "has 2 values for shape 3 elements"},
        MalformedCase{"graph_not_first", "input %x[2]:fp32\ngraph \"late\"\n",
                      "bad.ir:2:", "'graph' must be the first statement"},
        MalformedCase{"unknown_statement", "tensor %x[2]:fp32\n", "bad.ir:1:1",
                      "expected a statement"},
        MalformedCase{"undefined_output", "input %x[2,3]:fp32\noutput %y\n", "bad.ir:2:8",
                      "tensor '%y' is used before it is defined"},
        MalformedCase{"storage_of_a_later_tensor",
                      "input %x[2]:fp32\ninput %y[2]:fp32\nstorage %x = %y\n", "bad.ir:3:14",
                      "reuse the storage of an earlier tensor only"},
        MalformedCase{"storage_too_small",
                      "input %x[2]:fp32\ninput %y[3]:fp32\nstorage %y = %x\n", "bad.ir:3:14",
                      "tensor '%y' does not fit the storage of '%x'"}),
    [](const ::testing::TestParamInfo<MalformedCase>& info) { return info.param.name; });

TEST(IrParser, AnIrWorkloadFileLoadsByExtensionAndErrorsNameTheFile) {
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() / "polyarch_ir_parser_test.ir";
  {
    std::ofstream file(path);
    file << "input %x[4]:fp32\n%r = elementwise(%x) fn=relu elements=4 inputs=1 -> %y[4]:fp32 "
            "native\noutput %y\n";
  }
  const Graph graph = frontend::load_workload(path);
  EXPECT_EQ(graph.name(), "polyarch_ir_parser_test");  // the file's stem without a graph line
  EXPECT_EQ(graph.op_count(), 1u);
  EXPECT_FALSE(frontend::workload_sha256(path).empty());
  {
    std::ofstream file(path);
    file << "input %x[4]:fp32\n%r = elementwise(%x) fn=relu -> %y[4]:fp32 native\n";
  }
  const std::optional<Error> error = capture_error([&] { frontend::load_workload(path); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->where().file, path.string());
  EXPECT_EQ(error->where().line, 2);
  EXPECT_THAT(error->what(), HasSubstr("elementwise needs 'elements='"));
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace polyarch::ir
