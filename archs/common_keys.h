#pragma once
// Keys every unit kind reads the same way: `dtype:`-style keys (one of the arithmetic types,
// int8 ... fp32) and the unit's own optional `clock_ghz`.
#include <optional>
#include <string>

#include "base/config_tree.h"
#include "compiler/ir/dtype.h"

namespace polyarch::archs {

ir::DType optional_dtype_key(MapReader& reader, const std::string& key, ir::DType fallback);
// The unit's `clock_ghz`, or nullopt to run at the SoC clock.
std::optional<double> optional_clock_key(MapReader& reader);

}  // namespace polyarch::archs
