#pragma once
// Short constructors for key-table rows, one per key type, so a table reads one key per line:
// `int_key("rows", "PEs", kRequired, 1, 65536, "PE rows of the array")`.
#include <string>
#include <vector>

#include "base/key_table.h"

namespace polyarch {

// The default of a key that must be given.
inline constexpr const char* kRequired = "";

inline KeySpec int_key(std::string path, std::string unit, std::string default_value,
                       double min_value, double max_value, std::string doc) {
  return {std::move(path),
          KeyType::kInt,
          std::move(unit),
          std::move(default_value),
          min_value,
          max_value,
          {},
          std::move(doc)};
}

inline KeySpec number_key(std::string path, std::string unit, std::string default_value,
                          double min_value, double max_value, std::string doc) {
  return {std::move(path),
          KeyType::kNumber,
          std::move(unit),
          std::move(default_value),
          min_value,
          max_value,
          {},
          std::move(doc)};
}

inline KeySpec bool_key(std::string path, bool default_value, std::string doc) {
  return {std::move(path), KeyType::kBool, "", default_text(default_value), 0, 0, {},
          std::move(doc)};
}

inline KeySpec choice_key(std::string path, std::string default_value,
                          std::vector<std::string> choices, std::string doc) {
  return {std::move(path),    KeyType::kChoice, "", std::move(default_value), 0, 0,
          std::move(choices), std::move(doc)};
}

inline KeySpec string_key(std::string path, std::string default_value, std::string doc) {
  return {std::move(path), KeyType::kString, "", std::move(default_value), 0, 0, {},
          std::move(doc)};
}

// A nested map (`buffers:`) or a list (`units:`); its own keys are rows of their own.
inline KeySpec map_key(std::string path, std::string default_value, std::string doc) {
  return {std::move(path), KeyType::kMap, "", std::move(default_value), 0, 0, {}, std::move(doc)};
}

inline KeySpec list_key(std::string path, std::string default_value, std::string doc) {
  return {std::move(path), KeyType::kList, "", std::move(default_value), 0, 0, {}, std::move(doc)};
}

}  // namespace polyarch
