#pragma once
// How a tensor is defined in the text IR: `%name[1,3,224,224]:fp32`, then what is known of its
// contents: `{1,-1}` (the values, for small constants), `elided` (it has values the text does
// not carry; only hand-written files say so, print_graph writes the graph's `unavailable` line
// instead) and `external` (its values live in an external file that was not found).
#include <cstdint>
#include <string>

#include "compiler/ir/tensor.h"

namespace polyarch::ir {

// Constants with at most this many elements carry their values in the text: shape chains,
// scalars of patterns (GELU's 0.5, LayerNorm's epsilon) and small tables. Larger ones (weights)
// are structure only, like an ONNX file whose external weights are absent.
constexpr int64_t kMaxTextValueElements = 64;

// "[1,3,224,224]", "[]" for a scalar, "[?]" for a shape nobody has inferred yet.
std::string tensor_shape_text(const Tensor& tensor);

// "[1,3]:fp32", with ":?" for a type shape inference has not set yet.
std::string tensor_type_text(const Tensor& tensor);

// " {1,2}" for a constant the text carries, plus " external": empty otherwise.
std::string tensor_contents_text(const Tensor& tensor);

// Whether the tensor has values that the text leaves out (too many, or fp16/bf16).
bool contents_elided(const Tensor& tensor);

// "%name[1,3]:fp32 {1,2}": a tensor's full definition.
std::string tensor_definition_text(const Tensor& tensor);

}  // namespace polyarch::ir
