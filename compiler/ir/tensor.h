#pragma once
// Tensors of the graph IR: a name, a shape, an element type and, for constants (weights,
// imported initializers, Constant-node values), optionally their contents.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/ir/dtype.h"

namespace polyarch::ir {

enum class TensorRole { kActivation, kWeight, kOutput };

// Raw contents: elements in row-major order, each dtype_bytes() wide, little-endian (the ONNX
// raw_data layout). Shared and immutable so that copying a graph or a pass's output never
// copies weights.
using TensorBytes = std::shared_ptr<const std::vector<std::byte>>;

struct Tensor {
  std::string name;
  // Empty until shape inference has run for op outputs, unless `scalar` says it is rank 0.
  std::vector<int64_t> shape;
  DType dtype = DType::kInt8;
  TensorRole role = TensorRole::kActivation;
  // ONNX has rank-0 tensors; an empty `shape` alone cannot tell them from unknown shapes.
  bool scalar = false;
  // Contents of a constant; null for activations and for structure-only constants.
  TensorBytes data = nullptr;
  // The contents live in an external file that was not found: shape and dtype are real, but
  // nothing can compute with this tensor (timing and energy still can).
  bool external_data_missing = false;
  // False for an imported node's result whose model did not declare its element type; shape
  // inference sets it.
  bool dtype_known = true;
  // The tensor whose DRAM storage this one reuses, by name; empty: storage of its own. A
  // repeated layer's later copies write their result over the first copy's, as a benchmark
  // looping over one set of buffers does, so the copies add time but no footprint.
  std::string storage_of{};

  bool has_data() const { return data != nullptr; }
  bool shape_known() const { return scalar || !shape.empty(); }
};

// Elements of a shape (1 for a scalar); throws a runtime error on 64-bit overflow.
int64_t element_count(const std::vector<int64_t>& shape);

}  // namespace polyarch::ir
