#include "compiler/ir/conversions.h"

#include "compiler/ir/op_bytes.h"

namespace polyarch::ir {

Conversions converted_operands(const Op& op, DType run) {
  if (!op.dtype || *op.dtype == run || !is_narrow(*op.dtype)) return {};
  const ElementsReadWritten elements = elements_read_written(op);
  return {elements.read, elements.written};
}

}  // namespace polyarch::ir
