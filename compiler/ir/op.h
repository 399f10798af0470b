#pragma once
// Canonical compute ops: what mappers and simulators consume. Attributes are plain values in a
// std::variant, one struct per op kind. The foundation slice has Gemm and Conv2d; the compiler
// issue adds Attention, Elementwise, Reduce, Norm, Softmax, Pool, Copy. Frontend ops (an ONNX
// node as imported) sit in the same graph until lowering replaces them with canonical ones.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "compiler/ir/dtype.h"
#include "compiler/ir/tensor.h"
#include "compiler/support/error.h"

namespace polyarch::ir {

// C[batch][m][n] = sum_k A[batch][m][k] * B[batch][k][n]
struct GemmAttrs {
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  int64_t batch = 1;
};

// NCHW input [n, c, h, w] (unpadded), filters [k, c/groups, r, s], zero padding `pad_*` on
// each side. Output [n, k, out_h, out_w] with out_h = (h + 2*pad_h - r) / stride_h + 1.
struct Conv2dAttrs {
  int64_t n = 1;
  int64_t c = 0;
  int64_t h = 0;
  int64_t w = 0;
  int64_t k = 0;
  int64_t r = 0;
  int64_t s = 0;
  int64_t stride_h = 1;
  int64_t stride_w = 1;
  int64_t pad_h = 0;
  int64_t pad_w = 0;
  int64_t groups = 1;

  int64_t out_h() const { return (h + 2 * pad_h - r) / stride_h + 1; }
  int64_t out_w() const { return (w + 2 * pad_w - s) / stride_w + 1; }
};

// One attribute of an ONNX node. Tensor-valued attributes (Constant's `value`,
// ConstantOfShape's `value`) hold the tensor itself, contents included.
using AttributeValue = std::variant<int64_t, double, std::string, std::vector<int64_t>,
                                    std::vector<double>, std::vector<std::string>, Tensor>;

// An ONNX node before lowering: its operator, the opset it was exported against and its
// attributes by name. Its operands are the op's graph edges in ONNX order.
struct OnnxNodeAttrs {
  std::string op_type;  // "Conv", "MatMul", ...
  std::string domain;   // "" for the default ai.onnx domain
  int64_t opset = 0;    // version of `domain` the model imports
  std::map<std::string, AttributeValue> attributes;
  // ONNX positions of optional operands given as "" (e.g. Clip without `min`). The graph edges
  // list only the present ones, in order; these positions put them back in their slots.
  std::vector<int64_t> omitted_inputs;
  std::vector<int64_t> omitted_outputs;
};

using OpAttrs = std::variant<GemmAttrs, Conv2dAttrs, OnnxNodeAttrs>;

enum class OpKind { kGemm, kConv2d, kFrontend };
std::string_view op_kind_name(OpKind kind);  // "gemm", "conv2d", "frontend"
OpKind op_kind_of(const OpAttrs& attrs);

struct Op {
  std::string name;
  OpAttrs attrs;
  // Element type of the operands; nullopt = the executing unit's native dtype.
  std::optional<DType> dtype;
  SourceLocation where;  // the layer's position in its workload file, for errors

  OpKind kind() const { return op_kind_of(attrs); }
};

// What tables and dumps call the op: the kind name for canonical ops, "onnx:<op_type>" for an
// imported ONNX node ("onnx:<domain>.<op_type>" outside the default domain).
std::string op_type_name(const Op& op);

// Multiply-accumulates the op performs (checked against 64-bit overflow). Frontend ops count 0:
// their work is known only once lowering has turned them into canonical ops.
int64_t mac_count(const Op& op);

// Checks attributes for consistency (positive sizes, channels divisible by groups, a filter
// that fits the padded input, ...); throws a bad-input error naming the op and its location.
void validate_op(const Op& op);

// Lowered GEMM view of an op: `repeats` independent GEMMs of [m x k] * [k x n]. A convolution
// becomes its im2col GEMM per group (m = n*out_h*out_w, k = r*s*c/groups, n = k/groups,
// repeats = groups), as SCALE-Sim and most systolic mappers do. `ifmap_distinct_elements` is
// the size of the real input tensor per repeat (im2col duplicates elements; DRAM holds each once).
// Frontend ops have no GEMM view until lowered: asking is a runtime error.
struct GemmView {
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  int64_t repeats = 1;
  int64_t ifmap_distinct_elements = 0;
};
GemmView gemm_view(const Op& op);

}  // namespace polyarch::ir
