#pragma once
// Refusal messages name the node, value and file they are about ("model.onnx: graph.node[0]
// 'Foo_0' (Foo): has no lowering", "graph.input[1]: value 'y' has element type UINT64 ...");
// the summary groups tests by what the message says of any such node, value or file.
#include <string>

namespace polyarch::onnx_conformance {

// The reason without its file, node index and name, value names, input file number and advice.
std::string refusal_group(const std::string& reason);

}  // namespace polyarch::onnx_conformance
