#pragma once
// The operand and result shapes a Gemm or Conv2d's attributes fix. Shape inference fills the
// results from them; the verifier holds every pass to them.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"

namespace polyarch::ir {

using Shape = std::vector<int64_t>;

struct OperandShapes {
  std::vector<std::vector<Shape>> inputs;  // accepted shapes per operand position
  Shape output;
};

// Gemm: A [batch,m,k] (or [m,k] for one GEMM), B [k,n] or [batch,k,n], result [batch,m,n].
// Conv2d: X [n,c,h,w], W [k,c/groups,r,s], result [n,k,out_h,out_w] (logical NCHW whatever the
// op's layout). nullopt for the other kinds, whose frontends keep their own shapes.
std::optional<OperandShapes> operand_shapes(const Op& op);

// "op 'x': input 'a' has shape [..], expected [..]" when operand `position` of `op` has a known
// shape its attributes do not accept; nullopt when it agrees or is not known yet.
std::optional<std::string> operand_shape_problem(const Op& op, const OperandShapes& expected,
                                                 std::size_t position, const Tensor& input);

}  // namespace polyarch::ir
