#pragma once
// Input signs: whether each op's activation input can be negative, from what produces it, so
// that units whose cost depends on the sign (a bit-serial crossbar drives a signed input in two
// sign-magnitude phases) are timed for the values the op will see. A tensor is known
// non-negative when its producer's results never are negative: ReLU-like functions (relu,
// sigmoid, hard-sigmoid, exp, abs, sqrt, softplus), a fused activation of those (or a clip with
// a non-negative minimum), softmax, and a pool, copy, reduction or sum/product/maximum of
// non-negative inputs. Anything else may be negative; so may a model's input, unless the op
// already says (a layer list's `signed_input`, an .ir file's input=).
#include "compiler/passes/pass.h"

namespace polyarch::passes {

// Sets Op::signed_input on every op. Counters: "signed" and "unsigned" ops.
PassStatistics mark_signed_inputs(ir::Graph& graph);

class InputSignsPass : public Pass {
 public:
  std::string_view name() const override { return "input-signs"; }
  PassStatistics run(ir::Graph& graph) override { return mark_signed_inputs(graph); }
};

}  // namespace polyarch::passes
