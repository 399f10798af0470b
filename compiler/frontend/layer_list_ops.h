#pragma once
// Readers of one layer-list op's keys (everything but `name`, `op` and `dtype`) into the
// canonical op attributes. Each reader checks what it can at the offending key, so errors name
// file:line:col and the key path rather than only the op.
#include <string>
#include <vector>

#include "base/config_tree.h"
#include "compiler/ir/op.h"

namespace polyarch::frontend {

// The `op:` values a layer list accepts, in the order error messages list them.
const std::vector<std::string>& layer_list_op_names();

// The functions `elementwise` accepts for `fn`: the names lowering gives ONNX's elementwise
// operators (lower-cased op types), plus silu and copy.
const std::vector<std::string>& elementwise_function_names();

// Reads the keys of a layer whose `op` is `op_name` (one of layer_list_op_names()).
ir::OpAttrs read_layer_attrs(MapReader& layer, const std::string& op_name);

}  // namespace polyarch::frontend
