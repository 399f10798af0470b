// Bad ONNX files: each must be a bad-input error naming the file, never a crash.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "compiler/frontend/onnx/onnx_importer.h"
#include "tests/compiler/onnx_test_models.h"

namespace polyarch::frontend {
namespace {

using namespace polyarch::frontend::onnx_testing;
using polyarch::testing::capture_error;
using ::testing::HasSubstr;

// The error must be bad input and name the file; `fragment` says what went wrong.
void expect_bad_model(const fs::path& path, const std::string& fragment) {
  std::optional<Error> error = capture_error([&] { import_onnx(path); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->kind(), ErrorKind::kBadInput);
  EXPECT_EQ(error->where().file, path.string());
  EXPECT_THAT(error->what(), HasSubstr(fragment));
}

TEST_F(OnnxFixture, EmptyFileIsNotAModel) {
  expect_bad_model(write_bytes("empty.onnx", ""), "not an ONNX model: the file is empty");
}

TEST_F(OnnxFixture, GarbageBytesAreNotAModel) {
  expect_bad_model(write_bytes("text.onnx", "this is a text file, not a model\n"),
                   "not an ONNX model");
  std::mt19937 generator(1234);  // fixed seed: the same bytes every run
  std::string noise(4096, '\0');
  for (char& byte : noise) byte = static_cast<char>(generator() & 0xff);
  expect_bad_model(write_bytes("noise.onnx", noise), "not an ONNX model");
  // A well-formed protobuf message of another kind: no IR version, no graph.
  onnx::TensorProto tensor;
  tensor.add_dims(3);
  tensor.set_name("t");
  expect_bad_model(write_bytes("tensor.onnx", tensor.SerializeAsString()), "not an ONNX model");
}

TEST_F(OnnxFixture, TruncatedFileIsNotAModel) {
  std::ifstream in(model_path("tiny_cnn.onnx"), std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 1000u);
  for (std::size_t cut : {bytes.size() / 2, bytes.size() - 7, std::size_t{100}}) {
    expect_bad_model(write_bytes("cut.onnx", bytes.substr(0, cut)), "not an ONNX model");
  }
}

TEST_F(OnnxFixture, UnsupportedOpsetNamesTheOpsetAndTheRange) {
  expect_bad_model(write_model("new.onnx", small_model(22)),
                   "opset 22; polyarch imports opsets 13 to 21");
}

TEST_F(OnnxFixture, MissingInputNamesTheNodeAndOpType) {
  onnx::ModelProto model = small_model();
  model.mutable_graph()->mutable_node(0)->set_input(1, "no_such_tensor");
  expect_bad_model(write_model("missing.onnx", model), "input 'no_such_tensor'");
  std::optional<Error> error = capture_error([&] { import_onnx(dir_ / "missing.onnx"); });
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(error->where().key_path, "graph.node[0] 'add' (Add)");
}

TEST_F(OnnxFixture, CyclicGraphNamesAnOpOnTheCycle) {
  onnx::ModelProto model = small_model();
  onnx::GraphProto* graph = model.mutable_graph();
  // add reads what relu writes and relu reads what add writes.
  graph->mutable_node(0)->set_input(1, "loop");
  graph->mutable_node(1)->add_output("loop");
  expect_bad_model(write_model("cycle.onnx", model), "has a cycle through op 'add'");
}

TEST_F(OnnxFixture, TwoProducersOfOneTensorAreRejected) {
  onnx::ModelProto model = small_model();
  add_node(model.mutable_graph(), "Neg", {"x"}, {"sum"}, "neg");
  expect_bad_model(write_model("ssa.onnx", model), "output 'sum' is already defined");
}

TEST_F(OnnxFixture, SymbolicInputDimensionNeedsAFixedSize) {
  onnx::ModelProto model = small_model();
  auto* dim = model.mutable_graph()
                  ->mutable_input(0)
                  ->mutable_type()
                  ->mutable_tensor_type()
                  ->mutable_shape()
                  ->mutable_dim(0);
  dim->set_dim_param("batch");
  expect_bad_model(write_model("symbolic.onnx", model), "symbolic dimension 'batch'");
  // value_info may fix what the input declaration leaves open.
  set_tensor_type(model.mutable_graph()->add_value_info(), "x", {2, 4});
  const ir::Graph graph = load_onnx(write_model("fixed.onnx", model));
  EXPECT_EQ(find_tensor(graph, "x")->shape, (std::vector<int64_t>{2, 4}));
}

TEST_F(OnnxFixture, InitializerWhoseBytesDisagreeWithItsShapeIsRejected) {
  onnx::ModelProto model = small_model();
  model.mutable_graph()->mutable_initializer(0)->add_float_data(5.0f);
  expect_bad_model(write_model("size.onnx", model), "holds 20 bytes, but its shape [4]");
}

TEST_F(OnnxFixture, SubgraphAttributesAreRejectedNamingTheNode) {
  onnx::ModelProto model = small_model();
  auto* branch = model.mutable_graph()->mutable_node(1)->add_attribute();
  branch->set_name("then_branch");
  branch->set_type(onnx::AttributeProto::GRAPH);
  branch->mutable_g()->set_name("body");
  expect_bad_model(write_model("if.onnx", model), "graph.node[1] 'Relu_1' (Relu)");
}

TEST_F(OnnxFixture, MissingFileIsBadInput) {
  expect_bad_model(dir_ / "absent.onnx", "cannot open");
}

}  // namespace
}  // namespace polyarch::frontend
