#include "compiler/interp/imported_call.h"

#include "compiler/passes/onnx_node.h"
#include "compiler/passes/onnx_shape_context.h"

namespace polyarch::interp {

void fail(const ImportedOpCall& call, const std::string& message) {
  passes::node_error(call.op, call.node.op_type + " " + message);
}

const DenseTensor& operand(const ImportedOpCall& call, std::size_t i) {
  if (i >= call.slots.size() || call.slots[i] == nullptr) {
    fail(call, "needs operand " + std::to_string(i) + ", which is missing");
  }
  return *call.slots[i];
}

const DenseTensor* optional_operand(const ImportedOpCall& call, std::size_t i) {
  return i < call.slots.size() ? call.slots[i] : nullptr;
}

std::vector<int64_t> integers(const DenseTensor& tensor) {
  std::vector<int64_t> values;
  for (float value : tensor.values) values.push_back(static_cast<int64_t>(value));
  return values;
}

int64_t int_attr(const ImportedOpCall& call, const std::string& name, int64_t fallback) {
  return passes::int_attribute(call.node, name, fallback);
}

float float_attr(const ImportedOpCall& call, const std::string& name, double fallback) {
  return static_cast<float>(passes::float_attribute(call.node, name, fallback));
}

int64_t axis_of(const ImportedOpCall& call, int64_t axis, std::size_t rank) {
  return passes::normalized_axis(call.op, axis, static_cast<int64_t>(rank));
}

std::vector<DenseTensor> as_declared(const ImportedOpCall& call, DenseTensor value) {
  const Shape& declared = call.results.at(0)->shape;
  if (value.shape != declared) {
    fail(call, "computes a result of shape " + passes::shape_string(value.shape) +
                   " from its operands' values, but the model declares " +
                   passes::shape_string(declared));
  }
  return {std::move(value)};
}

}  // namespace polyarch::interp
