#pragma once
// Keys every unit kind declares and reads the same way: `name` and `kind` (read by the SoC
// parser), `dtype:`-style keys (one of the arithmetic types, int8 ... fp32) and the unit's own
// optional `clock_ghz`.
#include <optional>
#include <string>
#include <vector>

#include "base/config_tree.h"
#include "base/key_table.h"
#include "compiler/ir/dtype.h"

namespace polyarch::archs {

// A kind's key table: `name` and `kind` first, then `keys`.
KeyTable unit_key_table(std::string kind, std::string summary, std::vector<KeySpec> keys);
// A `dtype:`-style key at `path` defaulting to `fallback`.
KeySpec dtype_key(std::string path, ir::DType fallback, std::string doc);
// The unit's own `clock_ghz` (absent: the SoC clock).
KeySpec clock_key();

ir::DType read_dtype(MapReader& reader, const KeySpec& spec);
ir::DType optional_dtype_key(MapReader& reader, const std::string& key, ir::DType fallback);
// The unit's `clock_ghz`, or nullopt to run at the SoC clock.
std::optional<double> optional_clock_key(MapReader& reader);

}  // namespace polyarch::archs
