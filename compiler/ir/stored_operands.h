#pragma once
// What an op's stored operands occupy in DRAM when they are not in the op's type: weights in a
// weight format (Op::weight_format: int4 or fp8 with group scales, pruned ones compressed) and
// an attention's KV cache in its own type (AttentionAttrs::kv_dtype). Cost models read these
// bytes instead of elements x the op's element size.
#include <cstdint>
#include <functional>
#include <optional>

#include "compiler/ir/graph.h"
#include "compiler/ir/op.h"

namespace polyarch::ir {

// Bytes of one stored scale: fp16, as GPTQ and AWQ checkpoints and fp8 KV caches keep them.
inline constexpr int64_t kScaleBytes = 2;

// Scales the op's weight format stores: for each output channel, one per `group` weights of
// the reduction axis (one per channel with group 0); 0 without a weight format.
int64_t weight_scale_count(const Op& op);
// Their bytes.
int64_t weight_scale_bytes(const Op& op);

// DRAM bytes of the op's weight operand (ir::weight_elements of them) when computed in
// `op_dtype`: in the weight format with its scales where the op has one, compressed where it is
// pruned; 0 for an op without weights.
int64_t weight_storage_bytes(const Op& op, DType op_dtype);

// Keys plus values of an attention op: 2 x b x kv_heads x kv_len x d elements.
int64_t kv_cache_elements(const AttentionAttrs& attention);

// DRAM bytes of an attention's KV cache when the op computes in `op_dtype`: its elements in
// kv_dtype (else op_dtype) plus, for an integer kv_dtype, one scale per token, head and K or V.
int64_t kv_cache_bytes(const AttentionAttrs& attention, DType op_dtype);

// Scale bytes the K or the V tensor of a cache in an integer kv_dtype keeps: one per token and
// head; 0 for a float cache or none.
int64_t kv_scale_bytes_per_tensor(const AttentionAttrs& attention);

// DRAM bytes of `elements` K or V elements as the cache stores them (kv_element_bytes each,
// rounded up to a whole byte).
int64_t kv_stored_bytes(const AttentionAttrs& attention, DType op_dtype, int64_t elements);

// Bytes one K or V element occupies as the cache stores it: its type, and its share of the
// scales an integer cache keeps per token and head.
double kv_element_bytes(const AttentionAttrs& attention, DType op_dtype);

// Lane instructions that widen a pair of stored values to the type the op computes in: none
// when they are stored in it; one packed conversion for a float format (Hopper's
// cvt.rn.f16x2.e4m3x2); a conversion and a packed multiply by the group's scale for an integer
// one (HFMA2), as weight-only GEMM and quantised-KV attention kernels dequantise in registers.
int64_t widen_ops_per_pair(DType stored, DType op_dtype);
// Those of a pair of cached K or V elements.
int64_t kv_widen_ops_per_pair(const AttentionAttrs& attention, DType op_dtype);

// DRAM bytes of a tensor as it is stored: the weight operand of an op with a weight format in
// that format with its scales, the K or V of an attention with a kv_dtype in it (with its scales
// for an integer type), the first such consumer deciding; a float tensor whose first reader (a
// graph output: its producer) computes in another float type, in that type (what --precision
// bf16 makes of an fp32 model); any other tensor in its own type. A model's weights keep their
// values in fp32 for the interpreter; these are the bytes a deployment stores.
//
// An op that names no type computes in its unit's (a layer list without `dtype`, whose tensors
// carry a placeholder type): where the caller knows that unit, `unit_dtype` gives the type, and
// such a tensor is stored in it.
using UnitDType = std::function<std::optional<DType>(NodeId op)>;
int64_t stored_tensor_bytes(const Graph& graph, NodeId tensor, const UnitDType& unit_dtype = {});

}  // namespace polyarch::ir
