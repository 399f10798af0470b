#pragma once
// Canonical compute ops: what mappers and simulators consume. Attributes are plain values in a
// std::variant, one struct per op kind: Gemm, Conv2d, Attention, Elementwise, Reduce, Norm,
// Softmax, Pool, Embedding and Copy. Frontend ops (an ONNX node as imported) sit in the same
// graph until lowering replaces them with canonical ones.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "base/error.h"
#include "compiler/ir/dtype.h"
#include "compiler/ir/tensor.h"

namespace polyarch::ir {

struct BlockSparseLayout;  // compiler/ir/block_sparse_layout.h

// An elementwise function a Gemm or Conv2d applies to each result element before writing it
// (operator fusion): the intermediate tensor never makes a round trip through memory. `fn` is
// an Elementwise function name ("relu", "clip", "sigmoid", "tanh", "gelu", "leakyrelu",
// "hardsigmoid"); `params` hold its constants by ONNX attribute name ("min"/"max" for clip,
// "alpha"/"beta", and "approximate_tanh" = 1 for the tanh-form GELU).
struct Activation {
  std::string fn;
  std::map<std::string, double> params;

  bool operator==(const Activation&) const = default;
};

// C[batch][m][n] = sum_k A[batch][m][k] * B[batch][k][n]
struct GemmAttrs {
  int64_t m = 0;
  int64_t n = 0;
  int64_t k = 0;
  int64_t batch = 1;
  // B is one [k x n] matrix for the whole batch (a weight) rather than one per batch entry
  // (attention's K and V): decides how many bytes B occupies.
  bool b_shared = true;
  bool bias = false;  // adds a bias row to C: m*n more additions per batch entry
  std::optional<Activation> activation = std::nullopt;  // fused: applied to C after the bias
};

// NCHW input [n, c, h, w] (unpadded), filters [k, c/groups, r, s], zero padding `pad_*` on
// each side, taps `dilation_*` input rows (columns) apart. Output [n, k, out_h, out_w] with
// out_h = (h + 2*pad_h - dilation_h*(r-1) - 1) / stride_h + 1. Dilation spreads the window
// without adding taps: the work (and its im2col GEMM) is that of the dense window's.
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
  int64_t dilation_h = 1;
  int64_t dilation_w = 1;
  int64_t groups = 1;
  bool bias = false;  // adds one bias value per filter to every output element
  std::optional<Activation> activation = std::nullopt;  // fused: applied to each output after the bias

  // Input rows (columns) one window spans, its first and last taps included.
  int64_t span_h() const { return dilation_h * (r - 1) + 1; }
  int64_t span_w() const { return dilation_w * (s - 1) + 1; }
  int64_t out_h() const { return (h + 2 * pad_h - span_h()) / stride_h + 1; }
  int64_t out_w() const { return (w + 2 * pad_w - span_w()) / stride_w + 1; }
  // The (unpadded) input row (column) that output row `y` (column `x`) reads at tap `tap`;
  // outside [0, h) ([0, w)) it is zero padding.
  int64_t input_row(int64_t y, int64_t tap) const {
    return y * stride_h + tap * dilation_h - pad_h;
  }
  int64_t input_col(int64_t x, int64_t tap) const {
    return x * stride_w + tap * dilation_w - pad_w;
  }
};

// Scaled-dot-product attention: softmax(Q K^T / sqrt(d) [+ causal mask]) V for b sequences of
// s queries against kv_len keys, h query heads sharing kv_heads key/value heads (GQA/MQA when
// kv_heads < h). `window` > 0: a sliding window of that many keys per query, causal or centred;
// `block_sparse`: a block-sparse layout (BigBird or an explicit block mask,
// block_sparse_layout.h), not combined with a window (attention_visibility.h says which keys
// each query sees).
// The flash-attention kernel a library runs for the op: software the workload states, as a
// measurement states the library it ran. kFlash3: a Hopper-native schedule (FlashAttention-3:
// warpgroup MMAs from shared memory); kFlash2: FlashAttention-2's, each warp issuing synchronous
// warp-level MMAs (mma.sync) and its own softmax. A unit kind with no such choice ignores it.
enum class AttentionKernel { kFlash3, kFlash2 };

struct AttentionAttrs {
  int64_t b = 1;
  int64_t h = 0;
  int64_t kv_heads = 0;
  int64_t s = 0;
  int64_t kv_len = 0;
  int64_t d = 0;
  bool causal = false;
  int64_t window = 0;
  // The element type of the KV cache: keys and values stored and read in it (with one fp16
  // scale per token, head and K or V for an integer type), widened to the op's type on chip;
  // nullopt = the op's type.
  std::optional<DType> kv_dtype = std::nullopt;
  // Shared and immutable: copies of the op share one layout; nullptr: no block pattern.
  std::shared_ptr<const BlockSparseLayout> block_sparse = nullptr;
  AttentionKernel kernel = AttentionKernel::kFlash3;
};

// `elements` outputs, each computed from `inputs` operands by the function `fn` ("add", "mul",
// "relu", "gelu", "erf", "dequantize", ...). Broadcast operands are read once per element.
struct ElementwiseAttrs {
  std::string fn;
  int64_t elements = 0;
  int64_t inputs = 1;
  // gelu only: the tanh form 0.5x(1 + tanh(sqrt(2/pi)(x + 0.044715x^3))) (ONNX Gelu's
  // approximate="tanh", GPT-2's formula) rather than the erf form; a library computes the two
  // with different routines, so their costs differ.
  bool approximate_tanh = false;
};

// Reduces each of `rows` rows of `cols` elements to one value with `fn` ("mean", "sum", "max").
struct ReduceAttrs {
  int64_t rows = 0;
  int64_t cols = 0;
  std::string fn = "mean";
};

enum class NormKind { kLayerNorm, kRmsNorm };

// Normalises each of `rows` rows of `cols` elements, then scales (and for LayerNorm shifts) by
// per-column parameters.
struct NormAttrs {
  NormKind kind = NormKind::kLayerNorm;
  int64_t rows = 0;
  int64_t cols = 0;
};

// Softmax over each of `rows` rows of `cols` elements.
struct SoftmaxAttrs {
  int64_t rows = 0;
  int64_t cols = 0;
};

enum class PoolKind { kMax, kAvg, kGlobal };

// NCHW pooling with an r x s window, one stride and symmetric padding for both axes; a global
// pool has the whole plane as its window (r = h, s = w).
struct PoolAttrs {
  int64_t n = 1;
  int64_t c = 0;
  int64_t h = 0;
  int64_t w = 0;
  int64_t r = 1;
  int64_t s = 1;
  int64_t stride = 1;
  int64_t pad = 0;
  PoolKind kind = PoolKind::kMax;

  int64_t out_h() const { return (h + 2 * pad - r) / stride + 1; }
  int64_t out_w() const { return (w + 2 * pad - s) / stride + 1; }
};

// Looks up `rows` rows of `cols` elements each in a table of `vocab` rows: no arithmetic, only
// the indices and the gathered rows move.
struct EmbeddingAttrs {
  int64_t rows = 0;
  int64_t cols = 0;
  int64_t vocab = 0;
};

// Moves `bytes` bytes (a transpose, a layout change). A view (reshape, flatten, squeeze)
// reinterprets the same bytes and costs nothing.
struct CopyAttrs {
  int64_t bytes = 0;
  bool is_view = false;
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

// The alternatives are in OpKind's order, so that op_kind_of is the variant's index.
using OpAttrs =
    std::variant<GemmAttrs, Conv2dAttrs, AttentionAttrs, ElementwiseAttrs, ReduceAttrs, NormAttrs,
                 SoftmaxAttrs, PoolAttrs, EmbeddingAttrs, CopyAttrs, OnnxNodeAttrs>;

enum class OpKind {
  kGemm,
  kConv2d,
  kAttention,
  kElementwise,
  kReduce,
  kNorm,
  kSoftmax,
  kPool,
  kEmbedding,
  kCopy,
  kFrontend
};
// "gemm", "conv2d", "attention", "elementwise", "reduce", "norm", "softmax", "pool",
// "embedding", "copy", "frontend"
std::string_view op_kind_name(OpKind kind);
OpKind op_kind_of(const OpAttrs& attrs);
std::string_view norm_kind_name(NormKind kind);
std::string_view attention_kernel_name(AttentionKernel kernel);  // "flash3", "flash2"
// The names attention_kernel_name gives, default first.
const std::vector<std::string>& attention_kernel_names();
std::optional<AttentionKernel> parse_attention_kernel(std::string_view name);  // "layernorm", "rmsnorm"
std::string_view pool_kind_name(PoolKind kind);  // "max", "avg", "global"

// How an op's weights are pruned, set by the sparsity pass from the weight values (or from a
// policy for structure-only models). Cost models read it: compressed weights move fewer DRAM
// bytes, and a matrix engine with N:M support (2:4 sparse tensor cores) skips the zeros.
struct WeightSparsity {
  double density = 1.0;  // fraction of nonzero weights
  // Structured N:M: at most `n` nonzeros in every `m` consecutive weights along the reduction
  // axis (k); 0:0 when the weights follow no such pattern.
  int64_t n = 0;
  int64_t m = 0;

  bool structured() const { return n > 0 && m > 0; }
};

// Weight-only quantisation (GPTQ, AWQ, fp8 weights): the weight operand is stored and read in
// `dtype`, with one fp16 scale per `group` consecutive weights along the reduction axis (0: one
// per output channel), and widened to the op's type before it is multiplied.
struct WeightFormat {
  DType dtype = DType::kInt8;
  int64_t group = 0;
};

// Memory order of an activation tensor with channels: NCHW (channels outer) or NHWC (channels
// innermost, what im2col on a systolic array or SIMD lanes read contiguously).
enum class Layout { kNchw, kNhwc };
std::string_view layout_name(Layout layout);  // "nchw", "nhwc"

struct Op {
  std::string name;
  OpAttrs attrs;
  // Element type of the operands; nullopt = the executing unit's native dtype.
  std::optional<DType> dtype;
  SourceLocation where;  // the layer's position in its workload file, for errors
  // The imported node a canonical op was lowered from. Costs ignore it; the reference
  // interpreter reads what the canonical attributes leave out (a Transpose's perm, a Concat's
  // axis, Gemm's transB and alpha, a norm's epsilon; a Slice's bounds and a reduction's axes,
  // which lowering keeps as attributes). Null for ops that were never imported.
  std::shared_ptr<const OnnxNodeAttrs> lowered_from = nullptr;
  // Set by the sparsity pass for ops with weights; nullopt = dense.
  std::optional<WeightSparsity> weight_sparsity = std::nullopt;
  // Gemm (with a shared B) and Conv2d: how the weights are stored; nullopt = in the op's type.
  std::optional<WeightFormat> weight_format = std::nullopt;
  // Set by the layout pass for ops that read or write channelled activations; nullopt = the
  // import's NCHW.
  std::optional<Layout> layout = std::nullopt;
  // Whether the op's first (activation) input may hold negative values: false after a producer
  // whose results are never negative (ReLU, softmax, a pool of those, ...), true after any other
  // or from a model's input (the input-signs pass); a layer list's `signed_input`. nullopt:
  // nobody said (a layer list without the key, an op built in code), which units take as
  // non-negative, the post-ReLU input of a CNN layer list. Bit-serial analog units drive a
  // signed input in two sign-magnitude phases, an unsigned one in one.
  std::optional<bool> signed_input = std::nullopt;

  OpKind kind() const { return op_kind_of(attrs); }
};

// What tables and dumps call the op: the kind name for canonical ops, "onnx:<op_type>" for an
// imported ONNX node ("onnx:<domain>.<op_type>" outside the default domain).
std::string op_type_name(const Op& op);

// Multiply-accumulates the op performs (checked against 64-bit overflow): Gemm, Conv2d and
// Attention's two matrix products (a causal mask's masked scores are skipped). Other kinds count 0,
// and so do frontend ops, whose work is known only once lowering has turned them into canonical
// ops.
int64_t mac_count(const Op& op);

// Arithmetic operations: 2 per MAC plus bias additions and one per result element for a fused
// activation (as its Elementwise op counted); for the other kinds, the operations
// each element goes through: 1 per elementwise output and per reduced or pooled window element,
// softmax 5 (max, subtract, exp, sum, divide), LayerNorm 7 (mean, subtract, square, variance,
// normalise, scale, shift), RMSNorm 4 (square, sum, normalise, scale); attention adds a scale
// and a softmax per score. Embedding lookups, copies and frontend ops count 0.
int64_t flop_count(const Op& op);

// Bytes the op reads (activations and weights, each distinct element once; an attention the
// keys some query sees, attention_visibility.h) and writes, with
// elements of op.dtype or, for an op that runs in its unit's native type, of `native_dtype`.
// A view Copy touches nothing; frontend ops count 0 like their MACs. A fused activation adds no
// bytes: the result it reads is still in the unit, which is what fusing it saves.
int64_t bytes_touched(const Op& op, DType native_dtype = DType::kFp32);

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
