#pragma once
// What pruned weights cost in memory: the bytes a compressed weight tensor occupies in DRAM
// (kept values plus their index metadata or a bitmask), which the sparsity annotation on an op
// (Op::weight_sparsity) makes smaller than the dense tensor.
#include <cstdint>

#include "compiler/ir/op.h"

namespace polyarch::ir {

// Elements of the op's weight operand: Gemm's B when one B serves the whole batch (b_shared),
// Conv2d's filters; 0 for ops without weights.
int64_t weight_elements(const Op& op);

// Bytes `elements` weights of `dtype` take in DRAM. N:M structured weights keep n
// of every m values plus ceil(log2 m) index bits per kept value (2 bits for 2:4, NVIDIA's
// sparse tensor core format); unstructured ones keep the nonzeros plus a one-bit-per-weight
// bitmask. Never more than the dense bytes: an encoding that would not save is not used.
int64_t stored_weight_bytes(int64_t elements, DType dtype, const WeightSparsity& sparsity);

}  // namespace polyarch::ir
