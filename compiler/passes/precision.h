#pragma once
// Precision: the element type each canonical op computes in (Op::dtype), which cost models
// price. Two sources:
//  - the model's own quantisation: a Gemm or Conv2d whose activation arrives through a
//    DequantizeLinear of int8 data (a QDQ model) is an int8 op with scales, as a QDQ runtime
//    executes it (the Q/DQ ops stay, so the reference interpreter computes exactly what the
//    model says);
//  - a policy (`--precision bf16[,softmax=fp32,...]`): floating-point ops move to the target
//    type, with per-kind overrides.
// The reference interpreter computes in fp32 whatever Op::dtype says, so this pass never
// changes a computed value.
#include <map>
#include <optional>
#include <string>

#include "compiler/passes/pass.h"

namespace polyarch::passes {

struct PrecisionPolicy {
  std::optional<ir::DType> target;          // nullopt: keep the model's types
  std::map<ir::OpKind, ir::DType> by_kind;  // the type of ops of a kind (overrides target)

  // The type a floating-point op of `kind` gets; nullopt to leave it as it is.
  std::optional<ir::DType> dtype_for(ir::OpKind kind) const;
};

// "DTYPE[,KIND=DTYPE...]", e.g. "bf16", "fp16,softmax=fp16", "int8,pool=int8". DTYPE is fp32,
// fp16, bf16 or int8; KIND a canonical kind name (gemm, conv2d, attention, elementwise, reduce,
// norm, softmax, pool, embedding, copy). Defaults before the overrides, as mixed-precision
// practice has them (PyTorch autocast): fp16/bf16 keep softmax and norm in fp32; int8
// quantises only the matrix ops (gemm, conv2d). Bad input names --precision and the part.
PrecisionPolicy parse_precision_policy(const std::string& text);

// Counters: "qdq int8" matrix ops the model quantises, "changed" ops the policy retyped.
class PrecisionPass : public Pass {
 public:
  explicit PrecisionPass(PrecisionPolicy policy = {}) : policy_(std::move(policy)) {}
  std::string_view name() const override { return "precision"; }
  PassStatistics run(ir::Graph& graph) override;

 private:
  PrecisionPolicy policy_;
};

}  // namespace polyarch::passes
