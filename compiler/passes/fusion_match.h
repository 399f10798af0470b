#pragma once
// What the fusion passes share: reading a lowered graph's patterns (an op's producer and
// consumers, elementwise functions, scalar constants, the imported node an op came from) and
// replacing a matched pattern by one op. Fusion runs on canonical ops, after lowering, so that
// the fused op's shapes and costs are those of the ops it replaces.
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/ir/graph.h"
#include "compiler/ir/graph_edit.h"
#include "compiler/passes/pass.h"

namespace polyarch::passes {

// The op's first result.
ir::NodeId result_of(const ir::Graph& graph, ir::NodeId op);

// The op's attributes when it is an Elementwise op computing `fn`, else null.
const ir::ElementwiseAttrs* elementwise_fn(const ir::Graph& graph, ir::NodeId op,
                                           std::string_view fn);
// The Elementwise op computing `fn` that writes the tensor, if that is its producer.
std::optional<ir::NodeId> produced_by(const ir::Graph& graph, ir::NodeId tensor,
                                      std::string_view fn);
// The ONNX type of the node a canonical op was lowered from ("" when it was never imported).
std::string source_type(const ir::Op& op);

// The value of a one-element constant (a scalar or a [1] tensor); nullopt otherwise.
std::optional<double> scalar_value(const ir::Graph& graph, ir::NodeId tensor);
// Whether `value` is `expected` to within `relative` (exporters write constants in fp32).
bool near(double value, double expected, double relative = 1e-6);

// For a binary elementwise op: its operand other than `known` (the same tensor when the op
// reads `known` twice); nullopt when `known` is not an operand.
std::optional<ir::NodeId> other_operand(const ir::Graph& graph, ir::NodeId op, ir::NodeId known);

// A binary elementwise op `fn` with a scalar constant operand: the other operand and the
// constant. `constant_first` asks for the constant on the left (Sub, Div: not commutative);
// nullopt for either order of a commutative op.
struct ConstantOperand {
  ir::NodeId operand;
  double constant;
};
std::optional<ConstantOperand> with_constant(const ir::Graph& graph, ir::NodeId op,
                                             std::string_view fn,
                                             std::optional<bool> constant_first = std::nullopt);

// The single op reading the tensor (nullopt when several do, or when it is a graph output).
std::optional<ir::NodeId> only_consumer(const ir::Graph& graph, ir::NodeId tensor);
// Whether every reader of the tensor is one of `ops` and it is not a graph output: the
// pattern can absorb it without anyone else losing it.
bool internal_to(const ir::Graph& graph, ir::NodeId tensor, const std::set<ir::NodeId>& ops);

// Replaces matched patterns, each by one op, and applies them together: the fused op takes
// the node of the pattern's `root` (the op writing the pattern's result, whose tensor and name
// stay, so readers and graph outputs are untouched) and the pattern's other ops go. Patterns
// must not share ops: `claim` refuses a pattern with an op an earlier one took.
class FusionRewrite {
 public:
  explicit FusionRewrite(ir::Graph& graph) : graph_(graph) {}

  // Whether none of the ops is taken yet; if so, takes them.
  bool claim(const std::vector<ir::NodeId>& ops);
  // `ops` (claimed, root among them) become `fused`, reading `inputs` in order.
  void replace(const std::vector<ir::NodeId>& ops, ir::NodeId root, ir::Op fused,
               std::vector<ir::NodeId> inputs);
  // Whether every intermediate result of `ops` (all but root's) is read only inside them.
  bool self_contained(const std::vector<ir::NodeId>& ops, ir::NodeId root) const;

  // Rewrites the graph; tensors only the erased ops read go as well. Returns the count of
  // ops erased.
  int64_t apply();

 private:
  ir::Graph& graph_;
  std::set<ir::NodeId> claimed_;
  struct Replacement {
    std::vector<ir::NodeId> ops;
    ir::NodeId root;
    ir::Op fused;
    std::vector<ir::NodeId> inputs;
  };
  std::vector<Replacement> replacements_;
};

// A canonical op named after the pattern's root, with the root's location and type, lowered
// from `node_type` (a synthesized ONNX node that tells the interpreter the semantics).
ir::Op fused_op(const ir::Op& root, ir::OpAttrs attrs, const std::string& node_type,
                std::map<std::string, ir::AttributeValue> attributes = {});

}  // namespace polyarch::passes
