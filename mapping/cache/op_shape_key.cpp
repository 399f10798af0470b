#include "mapping/cache/op_shape_key.h"

#include <utility>

#include "compiler/ir/op_text.h"

namespace polyarch::mapping {

std::string op_shape_key(const ir::Op& op, ir::DType dtype) {
  std::string key(ir::op_kind_name(op.kind()));
  // The attribute text leaves a convolution's tensor sizes to the graph's tensors; spell them.
  if (const auto* conv = std::get_if<ir::Conv2dAttrs>(&op.attrs)) {
    const std::pair<const char*, int64_t> sizes[] = {{" n=", conv->n}, {" c=", conv->c},
                                                     {" h=", conv->h}, {" w=", conv->w},
                                                     {" k=", conv->k}, {" r=", conv->r},
                                                     {" s=", conv->s}};
    for (const auto& [name, value] : sizes) key.append(name).append(std::to_string(value));
  }
  key.append(" ").append(ir::op_attributes_text(op.attrs));
  return key.append(" dtype=").append(ir::dtype_name(dtype));
}

}  // namespace polyarch::mapping
