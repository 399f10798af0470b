#pragma once
// The reference interpreter's emulation of the formats the precision pass gives ops
// (`polyarch run --functional --precision P`). The op's own kernel still computes in fp32; what
// changes is what it reads and what it writes (docs/numerics.md states the semantics):
//  - an op in fp16 or bf16: its float operands and its results rounded to that type (nearest
//    even); the arithmetic between in fp32;
//  - a gemm or conv2d in fp8 (E4M3 or E5M2): activation and weights each scaled per tensor to
//    the format's range (scale = amax / largest finite) and rounded to fp8 with saturation; the
//    fp8 values multiplied and summed in fp32, the sum multiplied by both scales, then bias and
//    fused activation, and the result rounded to bf16, the type the fp8 recipe gives the rest
//    of the network (execute_fp8_product);
//  - a gemm or conv2d in int8 that no DequantizeLinear feeds (a --precision w8a8 op):
//    activation per tensor and weights per output channel quantised symmetrically to
//    [-127, 127]; a QDQ model's int8 op computes exactly what its Q/DQ ops say, untouched;
//  - weights with a weight format (int4, int8, fp8; groups along the reduction axis, one fp16
//    scale each): quantised and dequantised before the op's own type applies;
//  - attention with a KV cache type: K and V quantised (integers: one fp16 scale per token and
//    head; fp8: one per-tensor scale) before the op's own type applies.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "compiler/interp/dense_tensor.h"
#include "compiler/ir/graph.h"
#include "compiler/passes/precision.h"

namespace polyarch::interp {

// A bad-input error naming --precision when `policy` gives a kind a type the interpreter has no
// emulation for: integer types other than int8, and int8 or fp8 outside gemm and conv2d (no
// scaling recipe is defined there); likewise a KV cache type other than a float or int8/int4.
void check_emulated_policy(const passes::PrecisionPolicy& policy, const std::string& text);

// The operand values op `op_id` computes with in its formats; nullopt when they are the fp32
// values themselves.
std::optional<std::vector<DenseTensor>> operands_in_formats(
    const ir::Graph& graph, ir::NodeId op_id, const std::vector<const DenseTensor*>& operands);

// Whether op `op_id` is an fp8 gemm or conv2d that execute_fp8_product computes: one the
// precision pass made fp8, not a QDQ model's, whose DequantizeLinear already gave it the model's
// fp8 values times their scales.
bool is_fp8_product(const ir::Graph& graph, ir::NodeId op_id);

// An fp8 gemm or conv2d on its fp32 operands, as an fp8 GEMM computes it (cuBLASLt with
// per-tensor scales): the product of the fp8 operands times scale_a x scale_b, plus the bias
// (Gemm's beta C, a convolution's per-filter bias) in fp32, then the fused activation. The
// result is not yet rounded to bf16 (round_results does that).
std::vector<DenseTensor> execute_fp8_product(const ir::Op& op,
                                             const std::vector<const DenseTensor*>& operands,
                                             const std::vector<const ir::Tensor*>& results);

// The op's float results rounded to the type it writes (fp16, bf16; bf16 for an fp8 op).
void round_results(const ir::Op& op, std::vector<DenseTensor>& results);

// The scheme for the functional summary: {"scheme": text, "ops": {type: count of ops computing
// in it}, "notes": [...]}, the notes saying where a part of the scheme found nothing to apply to
// (a KV cache type in a model without fused attention, a weight format without weights).
nlohmann::ordered_json precision_description(const std::string& text,
                                             const passes::PrecisionPolicy& policy,
                                             const ir::Graph& graph);

// The formats an op computes and stores in, for the functional summary: {"dtype": ...,
// "weight_format": "int4:g128", "kv_dtype": ...}, the keys present where they apply.
nlohmann::ordered_json op_formats(const ir::Op& op);

}  // namespace polyarch::interp
