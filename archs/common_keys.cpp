#include "archs/common_keys.h"

#include "base/key_specs.h"

namespace polyarch::archs {

KeyTable unit_key_table(std::string kind, std::string summary, std::vector<KeySpec> keys) {
  KeyTable table{kind, std::move(summary), {}};
  table.keys.push_back(
      descriptive(string_key("name", kRequired, "the unit's name, unique in the SoC")));
  table.keys.push_back(choice_key("kind", kRequired, {kind}, "the unit kind"));
  for (KeySpec& spec : keys) table.keys.push_back(std::move(spec));
  return table;
}

KeySpec dtype_key(std::string path, ir::DType fallback, std::string doc) {
  return choice_key(std::move(path), std::string(ir::dtype_name(fallback)), ir::dtype_names(),
                    std::move(doc));
}

KeySpec clock_key() {
  // 100 GHz is a typo guard (MHz written as GHz), far above any CMOS clock.
  return number_key("clock_ghz", "GHz", "SoC clock", 1e-6, 100.0, "the unit's own clock");
}

ir::DType read_dtype(KeyReader& reader, std::string_view key) {
  const ir::DType dtype = *ir::parse_dtype(reader.read_choice(key));
  if (ir::dtype_bits(dtype) % 8 != 0) {
    // Two values to a byte are a storage format here: no unit kind's datapath is modelled at
    // a sub-byte width.
    throw_bad_input(reader.map_reader().required(std::string(key)).where(),
                    std::string(ir::dtype_name(dtype)) +
                        " is not a unit's operand type: store weights in it with a layer's "
                        "weight_dtype, and the unit computes them in its own type");
  }
  return dtype;
}

}  // namespace polyarch::archs
