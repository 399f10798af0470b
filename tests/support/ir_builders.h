#pragma once
// Small builders for IR values in tests. Ops and tensors are built field by field: partial
// designated initializers would leave members without default initializers
// (-Wmissing-field-initializers).
#include <string>
#include <utility>

#include "compiler/ir/graph.h"

namespace polyarch::test_support {

// Every member given: GCC 12 warns falsely (-Wstringop-overflow) on move-assigning the
// attribute variant into a default-constructed op.
inline ir::Op make_op(const std::string& name, ir::OpAttrs attrs) {
  return ir::Op{name, std::move(attrs), std::nullopt, SourceLocation{"", 0, 0, ""}};
}

inline ir::Tensor make_tensor(const std::string& name,
                              ir::TensorRole role = ir::TensorRole::kActivation) {
  ir::Tensor tensor;
  tensor.name = name;
  tensor.role = role;
  return tensor;
}

}  // namespace polyarch::test_support
