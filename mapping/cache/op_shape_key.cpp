#include "mapping/cache/op_shape_key.h"

#include <cstdio>
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
  key.append(" dtype=").append(ir::dtype_name(dtype));
  // Weights stored in another type move other bytes: another decision.
  if (op.weight_format) {
    key.append(" weights=").append(ir::dtype_name(op.weight_format->dtype));
    key.append(" group=").append(std::to_string(op.weight_format->group));
  }
  // Pruned weights move fewer bytes, and an engine may skip an N:M pattern's zeros.
  if (op.weight_sparsity) {
    char density[32];
    std::snprintf(density, sizeof(density), "%.17g", op.weight_sparsity->density);
    key.append(" density=").append(density);
    if (op.weight_sparsity->structured()) {
      key.append(" nm=")
          .append(std::to_string(op.weight_sparsity->n))
          .append(":")
          .append(std::to_string(op.weight_sparsity->m));
    }
  }
  // A bit-serial analog unit drives a signed input in two phases.
  if (op.signed_input) key.append(*op.signed_input ? " signed_input" : " unsigned_input");
  return key;
}

}  // namespace polyarch::mapping
