#pragma once
// Keys every unit kind declares and reads the same way: `name` and `kind` (read by the SoC
// parser), `dtype:`-style keys (one of the arithmetic types, int8 ... fp32) and the unit's own
// optional `clock_ghz`.
#include <string>
#include <string_view>
#include <vector>

#include "base/key_reader.h"
#include "base/key_table.h"
#include "compiler/ir/dtype.h"

namespace polyarch::archs {

// A kind's key table: `name` and `kind` first, then `keys`.
KeyTable unit_key_table(std::string kind, std::string summary, std::vector<KeySpec> keys);
// A `dtype:`-style key at `path` defaulting to `fallback`.
KeySpec dtype_key(std::string path, ir::DType fallback, std::string doc);
// The unit's own `clock_ghz` (absent: the SoC clock).
KeySpec clock_key();

// The dtype the `dtype:`-style key `key` resolved to.
ir::DType read_dtype(KeyReader& reader, std::string_view key);

}  // namespace polyarch::archs
