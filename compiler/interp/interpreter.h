#pragma once
// The reference interpreter: executes a graph numerically in fp32 (int8 where a QDQ model
// quantises), op by op in topological order, reading weights from the graph's constant tensors.
// Canonical ops run their kernels (execute_op.h), reading what their attributes leave out from
// the node they were lowered from; imported nodes not yet lowered run as ONNX defines them
// (execute_frontend.h), so any point of the pass pipeline can be executed and compared. It is
// the compiler's debugger: its outputs are held against ONNX Runtime's in tests.
#include <string>
#include <vector>

#include "compiler/interp/dense_tensor.h"
#include "compiler/interp/mvm_engine.h"
#include "compiler/ir/graph.h"

namespace polyarch::interp {

// How ops compute: all in fp32 (int8 where a QDQ model quantises), whatever their types say;
// or in the formats the precision pass gave them, emulated (format_emulation.h).
enum class Numerics { kFp32, kOpFormats };

// The tensors a caller feeds: activations no op produces and that hold no contents, in the
// graph's order (an ONNX model's graph inputs).
std::vector<ir::NodeId> graph_inputs(const ir::Graph& graph);
// The graph's outputs (tensors with the output role), in the graph's order.
std::vector<ir::NodeId> graph_outputs(const ir::Graph& graph);

// Runs the graph on `inputs` (by tensor name; every graph input needs one, of its shape) and
// returns every graph output. A graph without weights (functional_available() false), an
// unlowered op or a missing input is a bad-input error; errors inside an op name it.
// With `mvm`, the products of Gemm and Conv2d ops whose weight operand is a constant of the
// graph, and that the engine accepts, are computed by the engine (a unit model's numerics).
// With Numerics::kOpFormats, ops compute in their formats.
std::vector<NamedTensor> run_graph(const ir::Graph& graph, const std::vector<NamedTensor>& inputs,
                                   MvmEngine* mvm = nullptr, Numerics numerics = Numerics::kFp32);

// The same run, returning the tensors named `names` instead (any tensor of the graph: an
// intermediate result, a weight, an input), in that order. A name the graph lacks is bad input.
std::vector<NamedTensor> evaluate_tensors(const ir::Graph& graph,
                                          const std::vector<NamedTensor>& inputs,
                                          const std::vector<std::string>& names,
                                          MvmEngine* mvm = nullptr,
                                          Numerics numerics = Numerics::kFp32);

}  // namespace polyarch::interp
