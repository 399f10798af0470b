#pragma once
// What opsets 19 to 21 changed in operators polyarch supports, beyond new element types: each
// change is implemented where the importer, lowering and interpreter read the node, or refused
// here by name (node, op type, opset), so a newer model never runs with an older meaning.
//  - opset 19: AveragePool takes dilations (implemented: pools read them); Pad's mode "wrap"
//    and Resize's coordinate_transformation_mode "half_pixel_symmetric" (refused); Cast and
//    QuantizeLinear take `saturate` for float8 results (implemented).
//  - opset 20: DFT takes its axis as an operand instead of an attribute (refused);
//    GridSample names its modes "linear" and "cubic" and samples N-d inputs (4-D implemented,
//    the modes read as bilinear and bicubic); Gelu (implemented); ReduceMax and ReduceMin accept
//    booleans.
//  - opset 21: QuantizeLinear and DequantizeLinear quantise in blocks (`block_size`) and to
//    int4; QuantizeLinear takes `output_dtype` (implemented); GroupNormalization's scale and
//    bias become per channel (GroupNormalization is not supported at any opset).
#include "compiler/passes/onnx_shape_context.h"

namespace polyarch::passes {

// Throws a bad-input error naming the node when it uses a meaning its opset gave it that
// polyarch does not implement.
void check_opset_changes(const ShapeContext& context);

}  // namespace polyarch::passes
