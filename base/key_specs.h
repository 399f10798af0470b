#pragma once
// Short constructors for key-table rows, one per key type, so a table reads one key per line:
// `int_key("rows", "PEs", kRequired, 1, 65536, "PE rows of the array")`.
#include <string>
#include <vector>

#include "base/key_table.h"

namespace polyarch {

// The default of a key that must be given.
inline constexpr const char* kRequired = "";

// A row field by field: a new KeySpec member keeps its default without touching every
// constructor (aggregate braces would leave it uninitialised in -Wmissing-field-initializers'
// eyes).
inline KeySpec key_spec(std::string path, KeyType type, std::string unit, std::string default_value,
                        double min_value, double max_value, std::vector<std::string> choices,
                        std::string doc) {
  KeySpec spec;
  spec.path = std::move(path);
  spec.type = type;
  spec.unit = std::move(unit);
  spec.default_value = std::move(default_value);
  spec.min_value = min_value;
  spec.max_value = max_value;
  spec.choices = std::move(choices);
  spec.doc = std::move(doc);
  return spec;
}

inline KeySpec int_key(std::string path, std::string unit, std::string default_value,
                       double min_value, double max_value, std::string doc) {
  return key_spec(std::move(path), KeyType::kInt, std::move(unit), std::move(default_value),
                  min_value, max_value, {}, std::move(doc));
}

inline KeySpec number_key(std::string path, std::string unit, std::string default_value,
                          double min_value, double max_value, std::string doc) {
  return key_spec(std::move(path), KeyType::kNumber, std::move(unit), std::move(default_value),
                  min_value, max_value, {}, std::move(doc));
}

inline KeySpec bool_key(std::string path, bool default_value, std::string doc) {
  return key_spec(std::move(path), KeyType::kBool, "", default_text(default_value), 0, 0, {},
                  std::move(doc));
}

inline KeySpec choice_key(std::string path, std::string default_value,
                          std::vector<std::string> choices, std::string doc) {
  return key_spec(std::move(path), KeyType::kChoice, "", std::move(default_value), 0, 0,
                  std::move(choices), std::move(doc));
}

inline KeySpec string_key(std::string path, std::string default_value, std::string doc) {
  return key_spec(std::move(path), KeyType::kString, "", std::move(default_value), 0, 0, {},
                  std::move(doc));
}

// A nested map (`buffers:`) or a list (`units:`); its own keys are rows of their own.
inline KeySpec map_key(std::string path, std::string default_value, std::string doc) {
  return key_spec(std::move(path), KeyType::kMap, "", std::move(default_value), 0, 0, {},
                  std::move(doc));
}

inline KeySpec list_key(std::string path, std::string default_value, std::string doc) {
  return key_spec(std::move(path), KeyType::kList, "", std::move(default_value), 0, 0, {},
                  std::move(doc));
}

// A key that by design changes no simulated figure (a name, a label): `--describe` says so.
inline KeySpec descriptive(KeySpec spec) {
  spec.descriptive = true;
  return spec;
}

}  // namespace polyarch
