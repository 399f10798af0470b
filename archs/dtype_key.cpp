#include "archs/dtype_key.h"

namespace polyarch::archs {

ir::DType optional_dtype_key(MapReader& reader, const std::string& key, ir::DType fallback) {
  const std::string fallback_name(ir::dtype_name(fallback));
  return *ir::parse_dtype(reader.optional_enum(key, fallback_name, ir::dtype_names()));
}

}  // namespace polyarch::archs
