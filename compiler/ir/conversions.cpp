#include "compiler/ir/conversions.h"

#include "compiler/ir/op_bytes.h"
#include "compiler/ir/weight_sparsity.h"

namespace polyarch::ir {

Conversions converted_operands(const Op& op, DType run) {
  if (!op.dtype || *op.dtype == run || !is_narrow(*op.dtype)) return {};
  const ElementsReadWritten elements = elements_read_written(op);
  return {elements.read, elements.written};
}

Conversions dequantised_weights(const Op& op, DType run) {
  if (!op.weight_format || op.weight_format->dtype == run) return {};
  return {weight_elements(op), 0};
}

}  // namespace polyarch::ir
