#include "compiler/frontend/onnx/onnx_importer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "compiler/frontend/workload_loader.h"
#include "tests/compiler/onnx_test_models.h"

namespace polyarch::frontend {
namespace {

using namespace polyarch::frontend::onnx_testing;
using ::testing::HasSubstr;

struct ModelFacts {
  std::string file;
  int64_t nodes;
  int64_t opset;
  bool functional;
};

class RealExports : public ::testing::TestWithParam<ModelFacts> {};

// Node counts and opsets from the README table that ships with the exports.
INSTANTIATE_TEST_SUITE_P(OnnxImporter, RealExports,
                         ::testing::Values(ModelFacts{"tiny_cnn.onnx", 13, 17, true},
                                           ModelFacts{"tiny_cnn_unfolded.onnx", 17, 17, true},
                                           ModelFacts{"tiny_cnn_int8_qdq.onnx", 38, 17, true},
                                           ModelFacts{"bert_tiny.onnx", 155, 17, true},
                                           ModelFacts{"resnet50.onnx", 169, 17, false},
                                           ModelFacts{"bert_base.onnx", 755, 17, false},
                                           ModelFacts{"gpt2.onnx", 525, 18, false}),
                         [](const auto& info) {
                           std::string name = info.param.file.substr(0, info.param.file.find('.'));
                           return name;
                         });

TEST_P(RealExports, ImportsEveryNodeWithItsOpsetAndFunctionalAvailability) {
  const ModelFacts& facts = GetParam();
  const OnnxImport import = import_onnx(model_path(facts.file));
  EXPECT_EQ(static_cast<int64_t>(import.graph.op_count()), facts.nodes);
  EXPECT_EQ(import.opset, facts.opset);
  EXPECT_EQ(import.graph.functional_available(), facts.functional)
      << import.graph.functional_unavailable_reason();
  int64_t counted = 0;
  for (const auto& [type, count] : import.op_type_counts) counted += count;
  EXPECT_EQ(counted, facts.nodes);
  EXPECT_EQ(import.graph.topological_ops().size(), import.graph.op_count());
  EXPECT_FALSE(import.producer.empty());
  EXPECT_EQ(import.output_names.size(), 1u);
}

TEST(OnnxImporter, LoadWorkloadDispatchesOnnxByExtension) {
  const ir::Graph graph = load_workload(model_path("tiny_cnn.onnx"));
  EXPECT_EQ(graph.op_count(), 13u);
}

TEST(OnnxImporter, TinyCnnKeepsNamesShapesWeightsAndConstantValues) {
  const OnnxImport import = import_onnx(model_path("tiny_cnn.onnx"));
  EXPECT_EQ(import.input_names, std::vector<std::string>{"input"});
  EXPECT_EQ(import.output_names, std::vector<std::string>{"logits"});
  const ir::Tensor* input = find_tensor(import.graph, "input");
  ASSERT_NE(input, nullptr);
  EXPECT_EQ(input->shape, (std::vector<int64_t>{1, 3, 32, 32}));
  EXPECT_EQ(input->dtype, ir::DType::kFp32);
  const ir::Tensor* weight = find_tensor(import.graph, "dw.weight");
  ASSERT_NE(weight, nullptr);
  EXPECT_EQ(weight->role, ir::TensorRole::kWeight);
  EXPECT_EQ(weight->shape, (std::vector<int64_t>{32, 1, 3, 3}));
  ASSERT_TRUE(weight->has_data());
  EXPECT_EQ(weight->data->size(), 32u * 9 * 4);
  // The exporter's ReLU6 is Clip(x, 0, 6) with both bounds as Constant nodes.
  const ir::Tensor* clip_max = find_tensor(import.graph, "/Constant_1_output_0");
  ASSERT_NE(clip_max, nullptr);
  ASSERT_TRUE(clip_max->has_data());
  EXPECT_TRUE(clip_max->scalar);
  EXPECT_FLOAT_EQ(float_at(*clip_max, 0), 6.0f);
  EXPECT_EQ(import.op_type_counts.at("onnx:Conv"), 4);
  EXPECT_EQ(import.op_type_counts.at("onnx:Constant"), 2);
}

TEST(OnnxImporter, StructureOnlyModelKeepsInitializerDimsWithoutBytes) {
  const OnnxImport import = import_onnx(model_path("resnet50.onnx"));
  EXPECT_FALSE(import.graph.functional_available());
  EXPECT_THAT(import.graph.functional_unavailable_reason(), HasSubstr("resnet50.weights"));
  const ir::Tensor* fc = find_tensor(import.graph, "fc.weight");
  ASSERT_NE(fc, nullptr);
  EXPECT_EQ(fc->shape, (std::vector<int64_t>{1000, 2048}));
  EXPECT_EQ(fc->dtype, ir::DType::kFp32);
  EXPECT_FALSE(fc->has_data());
  EXPECT_TRUE(fc->external_data_missing);
  EXPECT_EQ(import.op_type_counts.at("onnx:Conv"), 53);
}

TEST(OnnxImporter, TransformerExportsRecordTheirOpTypes) {
  const OnnxImport bert = import_onnx(model_path("bert_base.onnx"));
  EXPECT_EQ(bert.op_type_counts.at("onnx:MatMul"), 96);
  EXPECT_EQ(bert.op_type_counts.at("onnx:Erf"), 12);
  EXPECT_EQ(bert.op_type_counts.size(), 19u);
  const ir::Tensor* ids = find_tensor(bert.graph, "input_ids");
  ASSERT_NE(ids, nullptr);
  EXPECT_EQ(ids->dtype, ir::DType::kInt64);
  const OnnxImport gpt2 = import_onnx(model_path("gpt2.onnx"));
  EXPECT_EQ(gpt2.op_type_counts.at("onnx:Split"), 12);
  EXPECT_EQ(gpt2.op_type_counts.size(), 15u);
}

TEST(OnnxImporter, DeclaredValueInfoGivesNodeResultsTheirShapes) {
  // The dynamo exporter writes value_info for intermediate values.
  const OnnxImport gpt2 = import_onnx(model_path("gpt2.onnx"));
  int64_t known = 0;
  for (ir::NodeId id : gpt2.graph.topological_ops()) {
    for (ir::NodeId out : gpt2.graph.outputs_of(id)) known += gpt2.graph.tensor(out).shape_known();
  }
  EXPECT_GT(known, 500);
}

TEST(OnnxImporter, DumpShowsOnnxOpsWithAttributesAndNamedResults) {
  const ir::Graph graph = load_onnx(model_path("tiny_cnn.onnx"));
  const std::string dump = ir::print_graph(graph);
  EXPECT_THAT(dump, HasSubstr("= onnx:Conv(%input[1,3,32,32], %"));
  EXPECT_THAT(
      dump,
      HasSubstr("= onnx:Constant() value=tensor<fp32[] {0}> -> %/Constant_output_0[]:fp32 {0}"));
  EXPECT_THAT(dump, HasSubstr("onnx:Relu("));
}

TEST_F(OnnxFixture, SmallModelConnectsOperandsInOrderAndNamesUnnamedNodes) {
  const ir::Graph graph = load_onnx(write_model("small.onnx", small_model()));
  const std::vector<ir::NodeId> ops = graph.topological_ops();
  ASSERT_EQ(ops.size(), 2u);
  EXPECT_EQ(graph.op(ops[0]).name, "add");
  EXPECT_EQ(graph.op(ops[1]).name, "Relu_1");
  const std::vector<ir::NodeId> add_inputs = graph.inputs_of(ops[0]);
  ASSERT_EQ(add_inputs.size(), 2u);
  EXPECT_EQ(graph.tensor(add_inputs[0]).name, "x");
  EXPECT_EQ(graph.tensor(add_inputs[1]).name, "bias");
  const ir::Tensor& bias = graph.tensor(add_inputs[1]);
  ASSERT_TRUE(bias.has_data());
  EXPECT_FLOAT_EQ(float_at(bias, 3), 4.0f);
  const ir::Tensor& y = graph.tensor(graph.outputs_of(ops[1])[0]);
  EXPECT_EQ(y.role, ir::TensorRole::kOutput);
  EXPECT_EQ(y.shape, (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(ir::mac_count(graph.op(ops[0])), 0);
  EXPECT_EQ(ir::op_type_name(graph.op(ops[1])), "onnx:Relu");
}

TEST_F(OnnxFixture, OmittedOptionalInputsKeepTheirPositions) {
  onnx::ModelProto model = small_model();
  model.mutable_graph()->mutable_node(1)->set_op_type("Clip");
  model.mutable_graph()->mutable_node(1)->add_input("");
  model.mutable_graph()->mutable_node(1)->add_input("bias");
  const ir::Graph graph = load_onnx(write_model("clip.onnx", model));
  const ir::OnnxNodeAttrs& clip = node_of(graph, "Clip_1");
  EXPECT_EQ(clip.omitted_inputs, std::vector<int64_t>{1});
  EXPECT_EQ(clip.opset, 17);
}

TEST_F(OnnxFixture, AttributesKeepTheirValues) {
  onnx::ModelProto model = small_model();
  onnx::NodeProto* relu = model.mutable_graph()->mutable_node(1);
  auto* axis = relu->add_attribute();
  axis->set_name("axis");
  axis->set_type(onnx::AttributeProto::INT);
  axis->set_i(-1);
  auto* pads = relu->add_attribute();
  pads->set_name("pads");
  pads->set_type(onnx::AttributeProto::INTS);
  for (int64_t pad : {1, 1, 0, 0}) pads->add_ints(pad);
  auto* alpha = relu->add_attribute();
  alpha->set_name("alpha");
  alpha->set_type(onnx::AttributeProto::FLOAT);
  alpha->set_f(0.5f);
  const ir::Graph graph = load_onnx(write_model("attrs.onnx", model));
  const ir::OnnxNodeAttrs& node = node_of(graph, "Relu_1");
  EXPECT_EQ(std::get<int64_t>(node.attributes.at("axis")), -1);
  EXPECT_EQ(std::get<std::vector<int64_t>>(node.attributes.at("pads")),
            (std::vector<int64_t>{1, 1, 0, 0}));
  EXPECT_DOUBLE_EQ(std::get<double>(node.attributes.at("alpha")), 0.5);
  EXPECT_THAT(ir::print_graph(graph),
              HasSubstr("alpha=0.5 axis=-1 pads=[1,1,0,0] -> %y[1,4]:fp32"));
}

void make_bias_external(onnx::ModelProto& model) {
  onnx::TensorProto* bias = model.mutable_graph()->mutable_initializer(0);
  bias->clear_float_data();
  bias->set_data_location(onnx::TensorProto::EXTERNAL);
  auto* location = bias->add_external_data();
  location->set_key("location");
  location->set_value("small.weights");
  auto* offset = bias->add_external_data();
  offset->set_key("offset");
  offset->set_value("4");
}

TEST_F(OnnxFixture, ExternalDataIsReadWhenTheFileExists) {
  onnx::ModelProto model = small_model();
  make_bias_external(model);
  const float values[] = {0.0f, 5.0f, 6.0f, 7.0f, 8.0f};
  write_bytes("small.weights", std::string(reinterpret_cast<const char*>(values), sizeof(values)));
  const ir::Graph graph = load_onnx(write_model("small.onnx", model));
  EXPECT_TRUE(graph.functional_available());
  const ir::Tensor* bias = find_tensor(graph, "bias");
  ASSERT_NE(bias, nullptr);
  ASSERT_TRUE(bias->has_data());
  EXPECT_FLOAT_EQ(float_at(*bias, 0), 5.0f);
  EXPECT_FLOAT_EQ(float_at(*bias, 3), 8.0f);
}

TEST_F(OnnxFixture, AbsentExternalDataGivesAShapeOnlyTensor) {
  onnx::ModelProto model = small_model();
  make_bias_external(model);
  const ir::Graph graph = load_onnx(write_model("small.onnx", model));
  EXPECT_FALSE(graph.functional_available());
  EXPECT_THAT(graph.functional_unavailable_reason(), HasSubstr("small.weights"));
  const ir::Tensor* bias = find_tensor(graph, "bias");
  ASSERT_NE(bias, nullptr);
  EXPECT_EQ(bias->shape, std::vector<int64_t>{4});
  EXPECT_TRUE(bias->external_data_missing);
}

}  // namespace
}  // namespace polyarch::frontend
