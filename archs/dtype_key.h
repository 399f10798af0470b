#pragma once
// The `dtype:`-style keys every unit kind reads: one of the arithmetic types (int8 ... fp32).
#include <string>

#include "compiler/ir/dtype.h"
#include "compiler/support/config_tree.h"

namespace polyarch::archs {

ir::DType optional_dtype_key(MapReader& reader, const std::string& key, ir::DType fallback);

}  // namespace polyarch::archs
