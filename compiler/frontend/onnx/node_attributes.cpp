#include "compiler/frontend/onnx/node_attributes.h"

#include "compiler/frontend/onnx/tensor_proto.h"

namespace polyarch::frontend::onnx_import {

namespace {

ir::Tensor attribute_tensor(const onnx::AttributeProto& attribute,
                            const std::filesystem::path& model_dir, const SourceLocation& where) {
  ImportedTensor imported =
      tensor_from_proto(attribute.t(), ir::TensorRole::kWeight, model_dir, where);
  if (!imported.missing_external_file.empty()) {
    throw_bad_input(where, "attribute '" + attribute.name() + "' keeps its tensor in '" +
                               imported.missing_external_file + "', which does not exist");
  }
  // Tensor attributes are often unnamed; the attribute name says what they are.
  if (imported.tensor.name.empty()) imported.tensor.name = attribute.name();
  return imported.tensor;
}

}  // namespace

ir::AttributeValue attribute_value(const onnx::AttributeProto& attribute,
                                   const std::filesystem::path& model_dir,
                                   const SourceLocation& where) {
  switch (attribute.type()) {
    case onnx::AttributeProto::INT:
      return attribute.i();
    case onnx::AttributeProto::FLOAT:
      return static_cast<double>(attribute.f());
    case onnx::AttributeProto::STRING:
      return attribute.s();
    case onnx::AttributeProto::INTS:
      return std::vector<int64_t>(attribute.ints().begin(), attribute.ints().end());
    case onnx::AttributeProto::FLOATS:
      return std::vector<double>(attribute.floats().begin(), attribute.floats().end());
    case onnx::AttributeProto::STRINGS:
      return std::vector<std::string>(attribute.strings().begin(), attribute.strings().end());
    case onnx::AttributeProto::TENSOR:
      return attribute_tensor(attribute, model_dir, where);
    case onnx::AttributeProto::GRAPH:
    case onnx::AttributeProto::GRAPHS:
      throw_bad_input(where, "attribute '" + attribute.name() +
                                 "' holds a subgraph; control flow (If, Loop, Scan) is not "
                                 "supported");
    default:
      throw_bad_input(where, "attribute '" + attribute.name() + "' has type " +
                                 onnx::AttributeProto::AttributeType_Name(attribute.type()) +
                                 ", which polyarch does not support");
  }
}

}  // namespace polyarch::frontend::onnx_import
