#pragma once
// LSTM, GRU and RNN as the ONNX primitives of their definitions, one step per time step: the
// gate products (MatMul), the bias additions, the gate functions and the state updates. A
// recurrent layer's work is these GEMMs and elementwise ops, so lowering them costs it exactly
// and the interpreter runs it as the operator documents define it.
#include "compiler/ir/graph.h"

namespace polyarch::lower {

// Replaces every LSTM, GRU and RNN node by its expansion, writing the node's results. Shape
// inference must have run. Attributes the expansion does not follow (activations other than
// the defaults, clip, input_forget, sequence lengths with a reverse direction) are a bad-input
// error naming the node.
void expand_recurrent_nodes(ir::Graph& graph);

}  // namespace polyarch::lower
