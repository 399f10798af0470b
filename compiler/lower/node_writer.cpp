#include "compiler/lower/node_writer.h"

#include "compiler/passes/onnx_node.h"
#include "compiler/passes/shape_inference.h"
#include "compiler/passes/tensor_values.h"

namespace polyarch::lower {

NodeWriter::NodeWriter(ir::Graph& graph, const ir::Op& replaced)
    : graph_(graph),
      prefix_(replaced.name + "/"),
      where_(replaced.where),
      opset_(std::get<ir::OnnxNodeAttrs>(replaced.attrs).opset) {}

std::string NodeWriter::fresh_name(const std::string& what) {
  return prefix_ + what + "_" + std::to_string(count_++);
}

ir::NodeId NodeWriter::constant(const passes::Values& contents) {
  ir::Tensor tensor;
  tensor.name = fresh_name("constant");
  tensor.role = ir::TensorRole::kWeight;
  passes::store_values(contents, tensor);
  return graph_.add_tensor(std::move(tensor));
}

ir::NodeId NodeWriter::int64s(const std::vector<int64_t>& values, std::vector<int64_t> shape) {
  passes::Values contents = passes::empty_values(ir::DType::kInt64, std::move(shape));
  contents.ints = values;
  return constant(contents);
}

ir::NodeId NodeWriter::reals(double value, std::vector<int64_t> shape, ir::DType dtype) {
  passes::Values contents = passes::empty_values(dtype, shape);
  contents.reals.assign(static_cast<std::size_t>(ir::element_count(shape)), value);
  return constant(contents);
}

ir::NodeId NodeWriter::node(const std::string& op_type, const std::vector<ir::NodeId>& inputs,
                            Attributes attributes, std::optional<ir::NodeId> result) {
  ir::OnnxNodeAttrs attrs;
  attrs.op_type = op_type;
  attrs.opset = opset_;
  attrs.attributes = std::move(attributes);
  ir::Op op;
  op.name = fresh_name(op_type);
  op.where = where_;
  op.attrs = std::move(attrs);
  const ir::NodeId op_id = graph_.add_op(std::move(op));
  for (ir::NodeId input : inputs) graph_.connect(input, op_id);
  if (!result) {
    ir::Tensor tensor;
    tensor.name = graph_.op(op_id).name + "_result";
    tensor.dtype_known = false;
    result = graph_.add_tensor(std::move(tensor));
  }
  graph_.connect(op_id, *result);
  if (!passes::infer_op_results(graph_, op_id)) {
    passes::node_error(graph_.op(op_id), op_type + " written for the expansion has no shape");
  }
  return *result;
}

}  // namespace polyarch::lower
