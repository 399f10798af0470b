#pragma once
// One canonical op of a lowered graph executed on its operands' values: picks the kernel and
// reads what the canonical attributes leave out from the imported node it was lowered from.
#include <vector>

#include "compiler/interp/dense_tensor.h"
#include "compiler/interp/mvm_engine.h"
#include "compiler/ir/graph.h"

namespace polyarch::interp {

// `operands` are the op's graph inputs in order; `results` its result tensors, whose shapes
// and types (known after shape inference) the values take. Returns one value per result.
// `mvm`, when given, computes the product of a Gemm or Conv2d whose weights are static (the
// caller decides that); everything else of the op runs as usual.
std::vector<DenseTensor> execute_op(const ir::Op& op,
                                    const std::vector<const DenseTensor*>& operands,
                                    const std::vector<const ir::Tensor*>& results,
                                    MvmEngine* mvm = nullptr);

}  // namespace polyarch::interp
