#include "mapping/cache/op_shape_key.h"

#include "compiler/ir/op_text.h"

namespace polyarch::mapping {

std::string op_shape_key(const ir::Op& op, ir::DType dtype) {
  std::string key(ir::op_kind_name(op.kind()));
  // The attribute text leaves a convolution's tensor sizes to the graph's tensors; spell them.
  if (const auto* conv = std::get_if<ir::Conv2dAttrs>(&op.attrs)) {
    key += " n=" + std::to_string(conv->n) + " c=" + std::to_string(conv->c) +
           " h=" + std::to_string(conv->h) + " w=" + std::to_string(conv->w) +
           " k=" + std::to_string(conv->k) + " r=" + std::to_string(conv->r) +
           " s=" + std::to_string(conv->s);
  }
  key += " " + ir::op_attributes_text(op.attrs);
  return key + " dtype=" + std::string(ir::dtype_name(dtype));
}

}  // namespace polyarch::mapping
