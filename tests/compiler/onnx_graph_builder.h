#pragma once
// Builds small imported-ONNX graphs directly in the IR for pass and lowering tests: inputs,
// initializers, constants and nodes with attributes, connected by tensor name.
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"

namespace polyarch::testing {

class OnnxGraphBuilder {
 public:
  ir::Graph graph{"test"};

  // An activation the caller feeds.
  OnnxGraphBuilder& input(const std::string& name, std::vector<int64_t> shape,
                          ir::DType dtype = ir::DType::kFp32) {
    ir::Tensor tensor;
    tensor.name = name;
    tensor.shape = std::move(shape);
    tensor.scalar = tensor.shape.empty();
    tensor.dtype = dtype;
    ids_[name] = graph.add_tensor(std::move(tensor));
    return *this;
  }

  // A weight initializer without contents (a structure-only model's).
  OnnxGraphBuilder& weight(const std::string& name, std::vector<int64_t> shape,
                           ir::DType dtype = ir::DType::kFp32) {
    input(name, std::move(shape), dtype);
    graph.tensor(ids_[name]).role = ir::TensorRole::kWeight;
    graph.tensor(ids_[name]).external_data_missing = true;
    return *this;
  }

  // An int64 initializer with contents (shape operands, axes).
  OnnxGraphBuilder& ints(const std::string& name, const std::vector<int64_t>& values,
                         bool scalar = false) {
    input(name, scalar ? std::vector<int64_t>{} : std::vector<int64_t>{int64_t(values.size())},
          ir::DType::kInt64);
    ir::Tensor& tensor = graph.tensor(ids_[name]);
    tensor.role = ir::TensorRole::kWeight;
    std::vector<std::byte> bytes(values.size() * sizeof(int64_t));
    // An empty vector's data() may be null, and memcpy's pointers must never be.
    if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
    tensor.data = std::make_shared<const std::vector<std::byte>>(std::move(bytes));
    return *this;
  }

  // A node; each result gets a tensor of unknown shape and type unless `declared` names it.
  OnnxGraphBuilder& node(const std::string& op_type, const std::vector<std::string>& inputs,
                         const std::vector<std::string>& outputs,
                         std::map<std::string, ir::AttributeValue> attributes = {},
                         const std::string& name = "") {
    ir::OnnxNodeAttrs attrs;
    attrs.op_type = op_type;
    attrs.opset = 17;
    attrs.attributes = std::move(attributes);
    ir::Op op;
    op.name = name.empty() ? op_type + "_" + std::to_string(graph.op_count()) : name;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      if (inputs[i].empty()) attrs.omitted_inputs.push_back(static_cast<int64_t>(i));
    }
    op.attrs = std::move(attrs);
    const ir::NodeId op_id = graph.add_op(std::move(op));
    for (const std::string& input : inputs) {
      if (!input.empty()) graph.connect(ids_.at(input), op_id);
    }
    for (const std::string& output : outputs) {
      ir::Tensor tensor;
      tensor.name = output;
      tensor.dtype_known = false;
      ids_[output] = graph.add_tensor(std::move(tensor));
      graph.connect(op_id, ids_[output]);
    }
    return *this;
  }

  // Marks a tensor as a graph output, optionally with a declared shape.
  OnnxGraphBuilder& output(const std::string& name) {
    graph.tensor(ids_.at(name)).role = ir::TensorRole::kOutput;
    return *this;
  }

  const ir::Tensor& tensor(const std::string& name) const { return graph.tensor(ids_.at(name)); }
  ir::Tensor& tensor(const std::string& name) { return graph.tensor(ids_.at(name)); }

 private:
  std::map<std::string, ir::NodeId> ids_;
};

}  // namespace polyarch::testing

#include <stdexcept>

#include "compiler/ir/graph_edit.h"

namespace polyarch::testing {

// A tensor by name in a graph a pass has rebuilt (builder ids are stale after that).
inline const ir::Tensor& tensor_named(const ir::Graph& graph, const std::string& name) {
  const auto id = ir::find_tensor(graph, name);
  if (!id) throw std::runtime_error("no tensor " + name);
  return graph.tensor(*id);
}

}  // namespace polyarch::testing
