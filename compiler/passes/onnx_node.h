#pragma once
// Reading an imported ONNX node inside passes: its attributes with ONNX defaults, its operands
// by ONNX position (omitted optional operands as null), and errors that name the node.
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"

namespace polyarch::passes {

// The node of an imported op, or null for a canonical op.
const ir::OnnxNodeAttrs* onnx_node(const ir::Op& op);

int64_t int_attribute(const ir::OnnxNodeAttrs& node, const std::string& name, int64_t fallback);
double float_attribute(const ir::OnnxNodeAttrs& node, const std::string& name, double fallback);
std::vector<int64_t> ints_attribute(const ir::OnnxNodeAttrs& node, const std::string& name,
                                    std::vector<int64_t> fallback = {});
std::string string_attribute(const ir::OnnxNodeAttrs& node, const std::string& name,
                             std::string fallback);

// Operand tensor ids in ONNX positions; an omitted optional operand is nullopt.
std::vector<std::optional<ir::NodeId>> onnx_operands(const ir::Graph& graph, ir::NodeId op_id);

// A bad-input error at the op's location, e.g. "graph.node[7] 'mm' (MatMul): inner dimensions
// differ"; a hand-built op without a location names itself.
[[noreturn]] void node_error(const ir::Op& op, const std::string& message);

// Axis in [-rank, rank) made non-negative, or a node error.
int64_t normalized_axis(const ir::Op& op, int64_t axis, int64_t rank);

}  // namespace polyarch::passes
