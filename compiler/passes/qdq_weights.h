#pragma once
// Weight-only quantisation as an ONNX model spells it: a Gemm's or Conv2d's weights come from a
// DequantizeLinear of a constant stored in int4, int8 or float8 (opsets 19 and 21: GPTQ/AWQ-style
// int4 in blocks along the reduction axis, per-channel int8, fp8), while its activation stays
// float. Weight-only kernels read the stored codes and dequantise them as they load them, so the
// matrix op gets that storage as its weight format and the DequantizeLinear does no work of its
// own (it stays in the graph, a view, so the reference interpreter still computes exactly the
// values the model says).
#include <optional>

#include "compiler/ir/graph.h"

namespace polyarch::passes {

struct DequantizedWeights {
  ir::NodeId dequantize = 0;  // the DequantizeLinear op
  ir::WeightFormat format;    // the constant's type; its block along the reduction axis (0: per
                              // output channel or per tensor)
};

// The weight-only storage of matrix op `op_id`, when its weight operand is such a
// DequantizeLinear (through layout copies) read by this op alone; nullopt otherwise, or when the
// blocks run along another axis than the reduction, which no weight format describes.
std::optional<DequantizedWeights> dequantized_weights(const ir::Graph& graph, ir::NodeId op_id);

// The DequantizeLinear as the view it becomes once its reader dequantises: no bytes of its own.
void fold_into_reader(ir::Op& dequantize);

}  // namespace polyarch::passes
