#include "base/key_table.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

namespace polyarch {

std::string_view key_type_name(KeyType type) {
  switch (type) {
    case KeyType::kInt:
      return "int";
    case KeyType::kNumber:
      return "number";
    case KeyType::kBool:
      return "bool";
    case KeyType::kString:
      return "string";
    case KeyType::kChoice:
      return "choice";
    case KeyType::kMap:
      return "map";
    case KeyType::kList:
      return "list";
  }
  return "?";
}

std::string_view KeySpec::leaf() const {
  const std::size_t dot = path.rfind('.');
  return dot == std::string::npos ? std::string_view(path) : std::string_view(path).substr(dot + 1);
}

namespace {

// A bound as a reader would write it: integers without a fraction, others in %g.
std::string bound_text(double value) {
  std::ostringstream text;
  if (std::abs(value) < 1e15 && value == std::floor(value)) {
    text << static_cast<int64_t>(value);
  } else {
    text << value;
  }
  return text.str();
}

std::string joined(const std::vector<std::string>& words, std::string_view separator) {
  std::string text;
  for (const std::string& word : words) {
    if (!text.empty()) text += separator;
    text += word;
  }
  return text;
}

}  // namespace

std::string default_text(double value) {
  char text[32];
  const auto result = std::to_chars(text, text + sizeof text, value);
  return std::string(text, result.ptr);
}

std::string default_text(int64_t value) { return std::to_string(value); }

std::string default_text(int value) { return std::to_string(value); }

std::string default_text(bool value) { return value ? "true" : "false"; }

std::string KeySpec::range_text() const {
  if (type == KeyType::kChoice) return joined(choices, " | ");
  if (type == KeyType::kInt || type == KeyType::kNumber) {
    return bound_text(min_value) + " .. " + bound_text(max_value);
  }
  return "";
}

const KeySpec& KeyTable::at(std::string_view path) const {
  for (const KeySpec& spec : keys) {
    if (spec.path == path) return spec;
  }
  throw_runtime({}, "key table '" + section + "' declares no key '" + std::string(path) + "'");
}

std::vector<std::string> KeyTable::keys_under(std::string_view prefix) const {
  std::vector<std::string> names;
  for (const KeySpec& spec : keys) {
    const std::string_view path = spec.path;
    const std::size_t dot = path.rfind('.');
    const std::string_view parent = dot == std::string_view::npos ? "" : path.substr(0, dot);
    if (parent == prefix) names.emplace_back(spec.leaf());
  }
  return names;
}

namespace {

std::string leaf_key(const KeySpec& spec) { return std::string(spec.leaf()); }

// The spec's default as a number; only called for optional numeric keys, whose table test checks
// that the default parses and lies in its range.
double numeric_default(const KeySpec& spec) {
  try {
    return std::stod(spec.default_value);
  } catch (const std::exception&) {
    throw_runtime({},
                  "key '" + spec.path + "' has a non-numeric default '" + spec.default_value + "'");
  }
}

}  // namespace

int64_t read_int(MapReader& reader, const KeySpec& spec) {
  return read_int_at_most(reader, spec, static_cast<int64_t>(spec.max_value));
}

int64_t read_int_at_most(MapReader& reader, const KeySpec& spec, int64_t max_value) {
  const auto min_value = static_cast<int64_t>(spec.min_value);
  if (spec.required()) return reader.required_int(leaf_key(spec), min_value, max_value);
  return reader.optional_int(leaf_key(spec), static_cast<int64_t>(numeric_default(spec)), min_value,
                             max_value);
}

double read_number(MapReader& reader, const KeySpec& spec) {
  if (spec.required())
    return reader.required_double(leaf_key(spec), spec.min_value, spec.max_value);
  return reader.optional_double(leaf_key(spec), numeric_default(spec), spec.min_value,
                                spec.max_value);
}

std::optional<double> read_optional_number(MapReader& reader, const KeySpec& spec) {
  const std::string key = leaf_key(spec);
  reader.ignore(key);
  if (!reader.has(key)) return std::nullopt;
  return reader.required_double(key, spec.min_value, spec.max_value);
}

bool read_bool(MapReader& reader, const KeySpec& spec) {
  return reader.optional_bool(leaf_key(spec), spec.default_value == "true");
}

std::string read_string(MapReader& reader, const KeySpec& spec) {
  if (spec.required()) return reader.required_string(leaf_key(spec));
  return reader.optional_string(leaf_key(spec), spec.default_value);
}

std::string read_choice(MapReader& reader, const KeySpec& spec) {
  if (spec.required()) return reader.required_enum(leaf_key(spec), spec.choices);
  return reader.optional_enum(leaf_key(spec), spec.default_value, spec.choices);
}

void finish_with_table(MapReader& reader, const KeyTable& table, std::string_view prefix) {
  const std::vector<std::string> declared = table.keys_under(prefix);
  for (const auto& [key, value] : reader.node().entries()) {
    if (std::find(declared.begin(), declared.end(), key) != declared.end()) continue;
    std::string message = "unknown key '" + key + "'";
    const std::string suggestion = nearest_spelling(key, declared);
    message += suggestion.empty() ? " (valid keys: " + joined(declared, ", ") + ")"
                                  : "; did you mean '" + suggestion + "'?";
    throw_bad_input(value.where(), message);
  }
  reader.finish();
}

std::string key_table_text(const KeyTable& table) {
  const std::vector<std::string> header = {"key", "type", "unit", "default", "range", "doc"};
  std::vector<std::vector<std::string>> rows = {header};
  for (const KeySpec& spec : table.keys) {
    rows.push_back(
        {spec.path, std::string(key_type_name(spec.type)), spec.unit,
         spec.required() ? "(required)" : spec.default_value, spec.range_text(),
         spec.descriptive ? spec.doc + " [descriptive: changes no simulated figure]" : spec.doc});
  }
  std::vector<std::size_t> widths(header.size(), 0);
  for (const auto& row : rows) {
    for (std::size_t column = 0; column < row.size(); ++column) {
      widths[column] = std::max(widths[column], row[column].size());
    }
  }
  std::string text = table.section + ": " + table.summary + "\n";
  for (const auto& row : rows) {
    std::string line;
    for (std::size_t column = 0; column < row.size(); ++column) {
      line += row[column];
      // The doc column is last: no padding after it.
      if (column + 1 < row.size())
        line += std::string(widths[column] - row[column].size() + 2, ' ');
    }
    text += line + "\n";
  }
  return text;
}

}  // namespace polyarch
