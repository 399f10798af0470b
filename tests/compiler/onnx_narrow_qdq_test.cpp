// ONNX models of opsets 19 to 21 with float8 and int4 data: the importer reads the codes, the
// reference interpreter computes what the operators define (worked by hand below), and the
// precision pass turns the model's own quantisation into op types and weight formats.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

#include "compiler/frontend/onnx/element_type.h"
#include "compiler/frontend/workload_loader.h"
#include "compiler/interp/interpreter.h"
#include "compiler/ir/op_bytes.h"
#include "compiler/lower/pipeline.h"
#include "tests/compiler/onnx_test_models.h"

namespace polyarch::frontend::onnx_testing {
namespace {

using ::testing::HasSubstr;

onnx::ModelProto empty_model(int64_t opset) {
  onnx::ModelProto model;
  model.set_ir_version(10);
  model.set_producer_name("polyarch-test");
  auto* opset_id = model.add_opset_import();
  opset_id->set_domain("");
  opset_id->set_version(opset);
  model.mutable_graph()->set_name("narrow");
  return model;
}

onnx::TensorProto* raw_initializer(onnx::GraphProto* graph, const std::string& name,
                                   int32_t data_type, const std::vector<int64_t>& dims,
                                   const std::string& raw) {
  onnx::TensorProto* tensor = graph->add_initializer();
  tensor->set_name(name);
  tensor->set_data_type(data_type);
  for (int64_t dim : dims) tensor->add_dims(dim);
  tensor->set_raw_data(raw);
  return tensor;
}

onnx::TensorProto* float_initializer(onnx::GraphProto* graph, const std::string& name,
                                     const std::vector<int64_t>& dims,
                                     const std::vector<float>& values) {
  onnx::TensorProto* tensor = graph->add_initializer();
  tensor->set_name(name);
  tensor->set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t dim : dims) tensor->add_dims(dim);
  for (float value : values) tensor->add_float_data(value);
  return tensor;
}

void int_attribute(onnx::NodeProto* node, const std::string& name, int64_t value) {
  auto* attribute = node->add_attribute();
  attribute->set_name(name);
  attribute->set_type(onnx::AttributeProto::INT);
  attribute->set_i(value);
}

// x [1, 4] times int4 weights [4, 2] in blocks of 2 along K (axis 0), as GPTQ/AWQ exports
// store them. Codes, row-major: [[1, -2], [3, -8], [7, 0], [-1, 5]], two's-complement nibbles
// packed low first: (1, -2) -> 0xE1, (3, -8) -> 0x83, (7, 0) -> 0x07, (-1, 5) -> 0x5F.
// Scales per block of rows: rows 0-1 [0.5, 0.25], rows 2-3 [2, 1].
onnx::ModelProto int4_weight_only_model() {
  onnx::ModelProto model = empty_model(21);
  onnx::GraphProto* graph = model.mutable_graph();
  set_tensor_type(graph->add_input(), "x", {1, 4});
  set_tensor_type(graph->add_output(), "y", {1, 2});
  raw_initializer(graph, "w_codes", onnx_import::kInt4, {4, 2}, std::string("\xE1\x83\x07\x5F", 4));
  float_initializer(graph, "w_scale", {2, 2}, {0.5f, 0.25f, 2.0f, 1.0f});
  onnx::NodeProto* dequantize =
      add_node(graph, "DequantizeLinear", {"w_codes", "w_scale"}, {"w"}, "w_dequantize");
  int_attribute(dequantize, "axis", 0);
  int_attribute(dequantize, "block_size", 2);
  add_node(graph, "MatMul", {"x", "w"}, {"y"}, "matmul");
  return model;
}

class NarrowOnnx : public OnnxFixture {
 protected:
  ir::Graph compiled(const onnx::ModelProto& model) {
    ir::Graph graph = load_workload(write_model("model.onnx", model).string());
    lower::standard_pipeline().run(graph);
    return graph;
  }

  static std::vector<float> run(const ir::Graph& graph, const std::vector<float>& x) {
    interp::DenseTensor input;
    input.shape = {1, static_cast<int64_t>(x.size())};
    input.values = x;
    return interp::run_graph(graph, {{"x", input}}).at(0).tensor.values;
  }

  static const ir::Op& only_op_of(const ir::Graph& graph, ir::OpKind kind) {
    const ir::Op* found = nullptr;
    for (ir::NodeId id : graph.topological_ops()) {
      if (graph.op(id).kind() != kind) continue;
      EXPECT_EQ(found, nullptr) << "more than one " << ir::op_kind_name(kind);
      found = &graph.op(id);
    }
    if (found == nullptr) throw std::runtime_error("no op of the kind");
    return *found;
  }

  void expect_refused(const onnx::ModelProto& model, const std::string& message) {
    try {
      compiled(model);
      FAIL() << "expected an error containing: " << message;
    } catch (const Error& error) {
      EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
      EXPECT_THAT(error.message(), HasSubstr(message));
    }
  }
};

TEST_F(NarrowOnnx, Int4BlockedWeightsDequantiseAsTheOperatorDefines) {
  // W = [[0.5, -0.5], [1.5, -2], [14, 0], [-2, 5]]; x = [1, 2, 3, 4]:
  // y = [0.5 + 3 + 42 - 8, -0.5 - 4 + 0 + 20] = [37.5, 15.5].
  const ir::Graph graph = compiled(int4_weight_only_model());
  EXPECT_THAT(run(graph, {1, 2, 3, 4}), ::testing::ElementsAre(37.5f, 15.5f));
}

TEST_F(NarrowOnnx, Int4BlockedWeightsBecomeTheGemmsWeightFormat) {
  const ir::Graph graph = compiled(int4_weight_only_model());
  const ir::Op& gemm = only_op_of(graph, ir::OpKind::kGemm);
  ASSERT_TRUE(gemm.weight_format.has_value());
  EXPECT_EQ(gemm.weight_format->dtype, ir::DType::kInt4);
  EXPECT_EQ(gemm.weight_format->group, 2);
  EXPECT_EQ(gemm.dtype, ir::DType::kFp32);  // activations stay float
  // The DequantizeLinear is the gemm's prologue now: a view that moves nothing.
  const ir::Op& view = only_op_of(graph, ir::OpKind::kCopy);
  EXPECT_EQ(view.name, "w_dequantize");
  EXPECT_EQ(ir::bytes_touched(view), 0);
  // The gemm reads x (4 fp32), the codes (8 int4 = 4 bytes) with one fp16 scale per block
  // and column (2 x 2 x 2 bytes), and writes y (2 fp32): 16 + 4 + 8 + 8.
  EXPECT_EQ(ir::bytes_touched(gemm), 36);
}

TEST_F(NarrowOnnx, PerChannelInt8WeightsAreStoredPerOutputChannel) {
  onnx::ModelProto model = empty_model(19);
  onnx::GraphProto* graph = model.mutable_graph();
  set_tensor_type(graph->add_input(), "x", {1, 2});
  set_tensor_type(graph->add_output(), "y", {1, 2});
  // Codes [[10, -20], [30, 40]], a scale per output column (axis 1): [0.1, 0.5].
  raw_initializer(graph, "w_codes", onnx::TensorProto::INT8, {2, 2},
                  std::string("\x0A\xEC\x1E\x28", 4));
  float_initializer(graph, "w_scale", {2}, {0.1f, 0.5f});
  int_attribute(add_node(graph, "DequantizeLinear", {"w_codes", "w_scale"}, {"w"}), "axis", 1);
  add_node(graph, "MatMul", {"x", "w"}, {"y"});
  const ir::Graph compiled_graph = compiled(model);
  const ir::Op& gemm = only_op_of(compiled_graph, ir::OpKind::kGemm);
  ASSERT_TRUE(gemm.weight_format.has_value());
  EXPECT_EQ(gemm.weight_format->dtype, ir::DType::kInt8);
  EXPECT_EQ(gemm.weight_format->group, 0);
  // W = [[1, -10], [3, 20]]; x = [2, 1]: y = [2 + 3, -20 + 20].
  const std::vector<float> y = run(compiled_graph, {2, 1});
  EXPECT_NEAR(y[0], 5.0f, 1e-6);
  EXPECT_NEAR(y[1], 0.0f, 1e-5);
}

// x -> QuantizeLinear to E4M3 (scale 1, zero point +0) -> DequantizeLinear -> MatMul with ones.
onnx::ModelProto fp8_activation_model(int64_t saturate) {
  onnx::ModelProto model = empty_model(19);
  onnx::GraphProto* graph = model.mutable_graph();
  set_tensor_type(graph->add_input(), "x", {1, 4});
  set_tensor_type(graph->add_output(), "y", {1, 1});
  float_initializer(graph, "scale", {}, {1.0f});
  raw_initializer(graph, "zero", onnx_import::kFloat8E4M3FN, {}, std::string("\x00", 1));
  float_initializer(graph, "ones", {4, 1}, {1, 1, 1, 1});
  onnx::NodeProto* quantize = add_node(graph, "QuantizeLinear", {"x", "scale", "zero"}, {"xq"});
  int_attribute(quantize, "saturate", saturate);
  add_node(graph, "DequantizeLinear", {"xq", "scale", "zero"}, {"xd"});
  add_node(graph, "MatMul", {"xd", "ones"}, {"y"});
  return model;
}

TEST_F(NarrowOnnx, Fp8QdqActivationsMakeAnFp8Gemm) {
  const ir::Graph graph = compiled(fp8_activation_model(1));
  EXPECT_EQ(only_op_of(graph, ir::OpKind::kGemm).dtype, ir::DType::kFp8E4M3);
  // E4M3 keeps 3 fraction bits: 0.3 = 1.2 x 2^-2 lies between 1.125 and 1.25 x 2^-2 and rounds
  // to 0.3125; 500 and -1000 saturate to +-448; 1 is exact. Sum: 0.3125 + 448 - 448 + 1.
  EXPECT_THAT(run(graph, {0.3f, 500.0f, -1000.0f, 1.0f}), ::testing::ElementsAre(1.3125f));
}

TEST_F(NarrowOnnx, Fp8QuantizeWithoutSaturationOverflowsToNan) {
  // E4M3 has no infinity: 500 rounds past 448 to NaN, which the sum carries.
  const ir::Graph graph = compiled(fp8_activation_model(0));
  EXPECT_TRUE(std::isnan(run(graph, {0.3f, 500.0f, 0.0f, 1.0f}).at(0)));
  // 400 = 1.5625 x 2^8 sits halfway between 1.5 and 1.625 x 2^8: the even code, 384.
  EXPECT_THAT(run(graph, {0.3f, 400.0f, 0.0f, 1.0f}), ::testing::ElementsAre(385.3125f));
}

TEST_F(NarrowOnnx, CastToFloat8RoundsToNearestEvenAndSaturates) {
  onnx::ModelProto model = empty_model(19);
  onnx::GraphProto* graph = model.mutable_graph();
  set_tensor_type(graph->add_input(), "x", {1, 4});
  set_tensor_type(graph->add_output(), "e5m2", {1, 4});
  onnx::NodeProto* cast = add_node(graph, "Cast", {"x"}, {"narrow"});
  int_attribute(cast, "to", onnx_import::kFloat8E5M2);
  int_attribute(add_node(graph, "Cast", {"narrow"}, {"e5m2"}), "to", onnx::TensorProto::FLOAT);
  // E5M2 keeps 2 fraction bits: 0.3 -> 1.25 x 2^-2 = 0.3125; 500 = 1.95 x 2^8 -> 2 x 2^8 = 512;
  // -1000 -> -1024; 1e6 is past the largest finite 57344 and saturates.
  EXPECT_THAT(run(compiled(model), {0.3f, 500.0f, -1000.0f, 1e6f}),
              ::testing::ElementsAre(0.3125f, 512.0f, -1024.0f, 57344.0f));
}

TEST_F(NarrowOnnx, BlockedScaleOfTheWrongShapeNamesTheNode) {
  onnx::ModelProto model = int4_weight_only_model();
  model.mutable_graph()->mutable_initializer(1)->set_dims(0, 3);
  model.mutable_graph()->mutable_initializer(1)->clear_float_data();
  for (int i = 0; i < 6; ++i) model.mutable_graph()->mutable_initializer(1)->add_float_data(1);
  expect_refused(model, "does not hold one value per block of 2 along axis 0");
}

TEST_F(NarrowOnnx, TypesWithoutAnIrTypeAreRefusedByName) {
  onnx::ModelProto model = int4_weight_only_model();
  model.mutable_graph()->mutable_initializer(0)->set_data_type(onnx_import::kUint4);
  expect_refused(model, "element type UINT4, which polyarch does not support");
  model.mutable_graph()->mutable_initializer(0)->set_data_type(onnx_import::kFloat8E4M3FNUZ);
  expect_refused(model, "element type FLOAT8E4M3FNUZ");
}

TEST_F(NarrowOnnx, ChangedMeaningsPolyarchDoesNotImplementAreRefusedWithTheirOpset) {
  onnx::ModelProto model = empty_model(20);
  onnx::GraphProto* graph = model.mutable_graph();
  set_tensor_type(graph->add_input(), "x", {1, 8, 1});
  set_tensor_type(graph->add_output(), "y", {1, 8, 2});
  add_node(graph, "DFT", {"x"}, {"y"}, "spectrum");
  expect_refused(model, "DFT (opset 20): the axis as an operand");
  onnx::ModelProto pad = small_model(19);
  onnx::NodeProto* node = add_node(pad.mutable_graph(), "Pad", {"y", "pads"}, {"padded"}, "wrap");
  auto* mode = node->add_attribute();
  mode->set_name("mode");
  mode->set_type(onnx::AttributeProto::STRING);
  mode->set_s("wrap");
  onnx::TensorProto* pads = pad.mutable_graph()->add_initializer();
  pads->set_name("pads");
  pads->set_data_type(onnx::TensorProto::INT64);
  pads->add_dims(4);
  for (int64_t value : {0, 1, 0, 1}) pads->add_int64_data(value);
  pad.mutable_graph()->mutable_output(0)->set_name("padded");
  pad.mutable_graph()->mutable_output(0)->mutable_type()->mutable_tensor_type()->mutable_shape()
      ->mutable_dim(1)->set_dim_value(6);
  expect_refused(pad, "mode 'wrap', which opset 19 introduced, is not supported");
}

}  // namespace
}  // namespace polyarch::frontend::onnx_testing
