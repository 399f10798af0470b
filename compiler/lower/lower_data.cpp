// Lowering of ONNX data-movement nodes: views (Reshape, Flatten, Squeeze, Unsqueeze, Identity)
// cost nothing; Transpose, Concat, Split, Slice, Expand, gathers from activations, scatters,
// Trilu, Tile, Pad, Resize, DepthToSpace and OneHot move their result's bytes; a Gather from a
// weight table is an Embedding lookup. CumSum (an add per element), Hardmax (a compare per element)
// and LRN are costed as elementwise functions of their input.
#include <map>

#include "base/checked_math.h"
#include "compiler/lower/lower_context.h"
#include "compiler/passes/tensor_values.h"

namespace polyarch::lower {

namespace {

// Reinterprets the first operand's bytes; shape operands are dropped with the node.
Lowered view(const LowerContext& context) {
  ir::CopyAttrs attrs;
  attrs.bytes = context.result_bytes();
  attrs.is_view = true;
  return {attrs, {context.operand_id(0)}};
}

// A Dropout is a view of its data in inference mode. A training_mode operand that is not a
// constant false stays an operand, with the ratio, so the interpreter can refuse a run that
// would draw a random mask.
Lowered dropout(const LowerContext& context) {
  Lowered lowered = view(context);
  if (context.has(2)) {
    const std::optional<passes::Values> training = passes::read_values(context.operand(2));
    if (!training || training->size() == 0 || training->integer(0) != 0) {
      lowered.inputs = context.present_operands();
    }
  }
  return lowered;
}

// Writes every result once from the data operand(s).
Lowered move(const LowerContext& context, std::vector<ir::NodeId> inputs) {
  ir::CopyAttrs attrs;
  for (std::size_t i = 0; i < context.result_count(); ++i) {
    attrs.bytes = checked_add(attrs.bytes, context.result_bytes(i), "copy bytes");
  }
  return {attrs, std::move(inputs)};
}

Lowered move_first(const LowerContext& context) { return move(context, {context.operand_id(0)}); }

Lowered move_all(const LowerContext& context) { return move(context, context.present_operands()); }

// A table lookup when the data operand is a 2-D parameter gathered along its rows; otherwise a
// gather from activations, which moves data like any copy.
Lowered gather(const LowerContext& context) {
  const ir::Tensor& table = context.operand(0);
  if (table.role != ir::TensorRole::kWeight || table.shape.size() != 2 ||
      context.int_attr("axis", 0) != 0) {
    return move(context, {context.operand_id(0), context.operand_id(1)});
  }
  ir::EmbeddingAttrs attrs;
  attrs.vocab = table.shape[0];
  attrs.cols = table.shape[1];
  attrs.rows = ir::element_count(context.shape(1));
  return {attrs, {context.operand_id(0), context.operand_id(1)}};
}

// CastLike converts its first operand as Cast does; the second only names the type.
Lowered cast_like(const LowerContext& context) {
  ir::ElementwiseAttrs attrs;
  attrs.fn = "cast";
  attrs.elements = context.result_elements();
  return {attrs, {context.operand_id(0)}};
}

// A Slice reads its bounds at run time unless they are constants, which lowered_from keeps.
Lowered slice(const LowerContext& context) {
  for (std::size_t i = 1; i < context.operand_slots(); ++i) {
    if (context.has(i) && !passes::read_values(context.operand(i))) {
      return move_all(context);
    }
  }
  return move_first(context);
}

// A Constant's value already lives in its result tensor: the node does no work.
Lowered constant(const LowerContext&) { return {}; }

// Shape and Size read metadata only.
Lowered metadata(const LowerContext& context) {
  ir::CopyAttrs attrs;
  attrs.bytes = context.result_bytes();
  attrs.is_view = true;
  return {attrs, {context.operand_id(0)}};
}

const std::map<std::string, LowerRule>& data_rules() {
  static const std::map<std::string, LowerRule> table = {
      {"Reshape", view},
      {"Flatten", view},
      {"Squeeze", view},
      {"Unsqueeze", view},
      {"Identity", view},
      {"Dropout", dropout},
      {"Transpose", move_first},
      {"Slice", slice},
      {"Split", move_first},
      {"Expand", move_first},
      {"Concat", move_all},
      {"GatherElements", move_all},
      {"ScatterElements", move_all},
      {"ScatterND", move_all},
      {"GatherND", move_all},
      {"Trilu", move_all},
      {"DepthToSpace", move_first},
      {"SpaceToDepth", move_first},
      {"Tile", move_all},
      {"Resize", move_all},
      {"Compress", move_all},
      {"NonZero", move_first},
      {"ReverseSequence", move_all},
      {"DynamicQuantizeLinear", lower_elementwise},
      {"MeanVarianceNormalization", lower_elementwise},
      {"Pad", move_all},
      {"OneHot", move_all},
      {"EyeLike", move_first},
      {"CumSum", lower_elementwise},
      {"Hardmax", lower_elementwise},
      {"LRN", lower_elementwise},
      {"CastLike", cast_like},
      {"ConstantOfShape", move_all},
      {"Range", move_all},
      {"Gather", gather},
      {"Constant", constant},
      {"Shape", metadata},
      {"Size", metadata},
  };
  return table;
}

}  // namespace

LowerRule data_lower_rule(const std::string& op_type) {
  const auto found = data_rules().find(op_type);
  return found == data_rules().end() ? nullptr : found->second;
}

}  // namespace polyarch::lower
