#pragma once
// The kernels of imported operators whose canonical op (a Copy, an Elementwise, a Reduce or a
// Softmax costed like them) does not say what they compute: the interpreter picks the kernel by
// the node the op was lowered from (GatherElements, ScatterND, Trilu, Pad, CumSum, the losses,
// ...).
#include <optional>
#include <vector>

#include "compiler/interp/dense_tensor.h"
#include "compiler/ir/graph.h"

namespace polyarch::interp {

struct ImportedOpCall {
  const ir::Op& op;
  const ir::OnnxNodeAttrs& node;
  std::vector<const DenseTensor*> slots;  // operands in ONNX positions, omitted ones null
  std::vector<const ir::Tensor*> results;
};

// The results of the node's operator, or nullopt when it is not one of these.
std::optional<std::vector<DenseTensor>> execute_imported_op(const ImportedOpCall& call);

// `values` (the canonical op's results) completed with the node's optional results that the
// canonical op does not compute: LayerNormalization's Mean and InvStdDev, MaxPool's Indices,
// Dropout's mask (all true: nothing is dropped in inference).
std::vector<DenseTensor> with_optional_results(const ImportedOpCall& call,
                                               std::vector<DenseTensor> values);

}  // namespace polyarch::interp
