#pragma once
// The op part of a decision-cache key: everything about an op that a unit kind's cost model
// reads (kind, every dimension, attributes, element type) and nothing it does not (its name),
// so every op of a model with one shape shares one cached decision. Weight storage, pruning and
// an input's sign are part of it: cost models price them.
#include <string>

#include "compiler/ir/op.h"

namespace polyarch::mapping {

// "gemm m=512 n=768 k=768 batch=1 dtype=int8", "conv2d n=1 c=64 h=56 w=56 k=64 r=3 s=3
// stride=1x1 pad=1x1 groups=1 dtype=fp16", ...
std::string op_shape_key(const ir::Op& op, ir::DType dtype);

}  // namespace polyarch::mapping
