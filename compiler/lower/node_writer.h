#pragma once
// Writes ONNX nodes into a graph in place of one imported node, for lowering rules that expand
// a node into primitives (a recurrent layer into its per-time-step gates): constants, nodes
// whose results get their shapes from the ONNX shape rules as they are added, and names that
// start with the replaced node's.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/graph.h"
#include "compiler/passes/tensor_values.h"

namespace polyarch::lower {

class NodeWriter {
 public:
  using Attributes = std::map<std::string, ir::AttributeValue>;

  NodeWriter(ir::Graph& graph, const ir::Op& replaced);

  ir::NodeId int64s(const std::vector<int64_t>& values, std::vector<int64_t> shape);
  ir::NodeId int64_scalar(int64_t value) { return int64s({value}, {}); }
  ir::NodeId int64_list(const std::vector<int64_t>& values) {
    return int64s(values, {static_cast<int64_t>(values.size())});
  }
  ir::NodeId reals(double value, std::vector<int64_t> shape, ir::DType dtype);

  // A node of `op_type` reading `inputs` in order, writing a new tensor (or `result`, a tensor
  // of the graph the replaced node wrote); returns the tensor written.
  ir::NodeId node(const std::string& op_type, const std::vector<ir::NodeId>& inputs,
                  Attributes attributes = {}, std::optional<ir::NodeId> result = std::nullopt);

  const ir::Tensor& tensor(ir::NodeId id) const { return graph_.tensor(id); }

 private:
  std::string fresh_name(const std::string& what);
  ir::NodeId constant(const passes::Values& contents);

  ir::Graph& graph_;
  std::string prefix_;
  SourceLocation where_;
  int64_t opset_;
  int64_t count_ = 0;
};

}  // namespace polyarch::lower
