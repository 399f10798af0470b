#include "archs/common_keys.h"

namespace polyarch::archs {

ir::DType optional_dtype_key(MapReader& reader, const std::string& key, ir::DType fallback) {
  const std::string fallback_name(ir::dtype_name(fallback));
  return *ir::parse_dtype(reader.optional_enum(key, fallback_name, ir::dtype_names()));
}

std::optional<double> optional_clock_key(MapReader& reader) {
  if (!reader.has("clock_ghz")) return std::nullopt;
  return reader.required_double("clock_ghz", 1e-6, 100.0);
}

}  // namespace polyarch::archs
