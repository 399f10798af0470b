#pragma once
// --allow-unknown: the pass that keeps ONNX nodes the compiler has no rules for, costed by the
// bytes of their results, rather than failing the import (see compiler/passes/unknown_ops.h).
#include <string>

#include "compiler/lower/lower_context.h"
#include "compiler/passes/pass.h"

namespace polyarch::lower {

// An unknown node's canonical stand-in: an Elementwise op with fn "unknown:<OpType>" over all
// its result elements, reading one operand element per result element, so that it costs its
// output bytes twice (read and write) and one operation per element.
ir::ElementwiseAttrs unknown_op_attrs(const std::string& qualified_op_type, int64_t result_elements);

// Lowers a placeholder left by AllowUnknownOpsPass once shapes are known.
Lowered lower_unknown_op(const LowerContext& context);

// Runs first. A node whose results the model declares (shape and type) becomes its canonical
// stand-in at once; any other becomes a placeholder in domain kUnknownOpDomain whose results
// take operand 0's shape and type. Counters: "unknown ops", of which "declared" and
// "shape assumed".
class AllowUnknownOpsPass : public passes::Pass {
 public:
  std::string_view name() const override { return "allow-unknown"; }
  passes::PassStatistics run(ir::Graph& graph) override;
};

}  // namespace polyarch::lower
