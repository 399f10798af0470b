#pragma once
// Shared by the ONNX importer tests: the shipped models, a per-test scratch directory, and a
// small model built through the protobuf API that tests break in one place each.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"
#include "tests/base/error_capture.h"

namespace polyarch::frontend::onnx_testing {

namespace fs = std::filesystem;
using polyarch::testing::source_path;

inline fs::path model_path(const std::string& name) {
  return source_path("tests/data/onnx/" + name);
}

inline const ir::Tensor* find_tensor(const ir::Graph& graph, const std::string& name) {
  for (ir::NodeId id = 0; id < graph.node_count(); ++id) {
    if (!graph.is_op(id) && graph.tensor(id).name == name) return &graph.tensor(id);
  }
  return nullptr;
}

inline const ir::OnnxNodeAttrs& node_of(const ir::Graph& graph, const std::string& op_name) {
  for (ir::NodeId id : graph.topological_ops()) {
    if (graph.op(id).name == op_name) return std::get<ir::OnnxNodeAttrs>(graph.op(id).attrs);
  }
  throw std::runtime_error("no op " + op_name);
}

// Each test writes its own files into a fresh directory.
class OnnxFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("polyarch_onnx_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write_bytes(const std::string& name, const std::string& bytes) {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  fs::path write_model(const std::string& name, const onnx::ModelProto& model) {
    return write_bytes(name, model.SerializeAsString());
  }

  fs::path dir_;
};

inline void set_tensor_type(onnx::ValueInfoProto* value, const std::string& name,
                            const std::vector<int64_t>& dims) {
  value->set_name(name);
  auto* tensor_type = value->mutable_type()->mutable_tensor_type();
  tensor_type->set_elem_type(onnx::TensorProto::FLOAT);
  auto* shape = tensor_type->mutable_shape();
  for (int64_t dim : dims) shape->add_dim()->set_dim_value(dim);
}

inline onnx::NodeProto* add_node(onnx::GraphProto* graph, const std::string& op_type,
                                 const std::vector<std::string>& inputs,
                                 const std::vector<std::string>& outputs,
                                 const std::string& name = "") {
  onnx::NodeProto* node = graph->add_node();
  node->set_op_type(op_type);
  node->set_name(name);
  for (const std::string& input : inputs) node->add_input(input);
  for (const std::string& output : outputs) node->add_output(output);
  return node;
}

// y = Relu(x + bias): x [1,4] f32 input, bias [4] f32 initializer with values 1..4.
inline onnx::ModelProto small_model(int64_t opset = 17) {
  onnx::ModelProto model;
  model.set_ir_version(8);
  model.set_producer_name("polyarch-test");
  auto* opset_id = model.add_opset_import();
  opset_id->set_domain("");
  opset_id->set_version(opset);
  onnx::GraphProto* graph = model.mutable_graph();
  graph->set_name("small");
  set_tensor_type(graph->add_input(), "x", {1, 4});
  set_tensor_type(graph->add_output(), "y", {1, 4});
  onnx::TensorProto* bias = graph->add_initializer();
  bias->set_name("bias");
  bias->set_data_type(onnx::TensorProto::FLOAT);
  bias->add_dims(4);
  for (float value : {1.0f, 2.0f, 3.0f, 4.0f}) bias->add_float_data(value);
  add_node(graph, "Add", {"x", "bias"}, {"sum"}, "add");
  add_node(graph, "Relu", {"sum"}, {"y"});
  return model;
}

inline float float_at(const ir::Tensor& tensor, std::size_t index) {
  float value = 0;
  std::memcpy(&value, tensor.data->data() + index * sizeof(float), sizeof(float));
  return value;
}

}  // namespace polyarch::frontend::onnx_testing
