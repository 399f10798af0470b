#pragma once
// Precision: the element type each canonical op computes in (Op::dtype), which cost models
// price. Two sources:
//  - the model's own quantisation: a Gemm or Conv2d whose activation arrives through a
//    DequantizeLinear of int8 data (a QDQ model) is an int8 op with scales, as a QDQ runtime
//    executes it (the Q/DQ ops stay, so the reference interpreter computes exactly what the
//    model says);
//  - a policy (`--precision bf16[,softmax=fp32,...]`, schemes such as w4a16): floating-point
//    ops move to the target type, with per-kind overrides, and weights and KV caches to their
//    storage types.
// The reference interpreter computes in fp32 whatever Op::dtype says unless asked to emulate
// the formats (`run --functional --precision`, docs/numerics.md).
#include <map>
#include <optional>
#include <string>

#include "compiler/passes/pass.h"

namespace polyarch::passes {

struct PrecisionPolicy {
  std::optional<ir::DType> target;          // nullopt: keep the model's types
  std::map<ir::OpKind, ir::DType> by_kind;  // the type of ops of a kind (overrides target)
  // Weight-only quantisation of gemm and conv2d weights, and the KV cache's type, where they
  // are narrower than the float type the op computes in.
  std::optional<ir::WeightFormat> weights;
  std::optional<ir::DType> kv_cache;

  // The type a floating-point op of `kind` gets; nullopt to leave it as it is.
  std::optional<ir::DType> dtype_for(ir::OpKind kind) const;
};

// Comma-separated parts, in any order:
//  - a type, or activations=TYPE: fp32, fp16, bf16, int8, fp8_e4m3, fp8_e5m2 (fp8 = fp8_e4m3),
//    with the other kinds' defaults as mixed-precision practice has them: fp16/bf16 keep
//    softmax and norm in fp32 (PyTorch autocast); int8 quantises only the matrix ops (gemm,
//    conv2d); fp8 runs the matrix ops in fp8, the rest in bf16 and softmax and norm in fp32
//    (Transformer Engine);
//  - a scheme: w8a8 (= int8), w4a16 (fp16, weights=int4:g128), w8a16 (fp16, weights=int8);
//  - weights=int8|int4|fp8_e4m3|fp8_e5m2[:gN]: weight-only quantisation, one scale per N weights
//    (per output channel without :gN);
//  - kv_cache=TYPE (also int4): the type attention's KV cache is stored in;
//  - KIND=TYPE, applied after the defaults, with KIND a canonical kind name (gemm, conv2d,
//    attention, elementwise, reduce, norm, softmax, pool, embedding, copy).
// Bad input names --precision and the part.
PrecisionPolicy parse_precision_policy(const std::string& text);

// Counters: "qdq int8" matrix ops the model quantises, "changed" ops the policy retyped,
// "weights stored narrower" and "kv caches stored narrower" ops given the policy's storage.
class PrecisionPass : public Pass {
 public:
  explicit PrecisionPass(PrecisionPolicy policy = {}) : policy_(std::move(policy)) {}
  std::string_view name() const override { return "precision"; }
  PassStatistics run(ir::Graph& graph) override;

 private:
  void store_narrower(ir::Op& op, PassStatistics& statistics) const;

  PrecisionPolicy policy_;
};

}  // namespace polyarch::passes
