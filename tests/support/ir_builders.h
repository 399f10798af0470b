#pragma once
// Small builders for IR values in tests. Ops and tensors are built field by field: partial
// designated initializers would leave members without default initializers
// (-Wmissing-field-initializers).
#include <string>
#include <utility>

#include "compiler/ir/graph.h"

namespace polyarch::test_support {

inline ir::Op make_op(const std::string& name, ir::OpAttrs attrs) {
  ir::Op op;
  op.name = name;
  op.attrs = std::move(attrs);
  return op;
}

inline ir::Tensor make_tensor(const std::string& name,
                              ir::TensorRole role = ir::TensorRole::kActivation) {
  ir::Tensor tensor;
  tensor.name = name;
  tensor.role = role;
  return tensor;
}

}  // namespace polyarch::test_support
