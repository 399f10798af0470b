// ConfigNode: the tree itself, its accessors and its typed scalar conversions.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <sstream>

#include "base/config_tree.h"

namespace polyarch {

namespace {

std::string format_double(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

bool parse_int(const std::string& text, int64_t& value) {
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if (begin != end && *begin == '+') ++begin;
  if (begin == end) return false;
  auto [stop, error] = std::from_chars(begin, end, value);
  return error == std::errc() && stop == end;
}

bool parse_double(const std::string& text, double& value) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text.front()))) return false;
  errno = 0;
  char* stop = nullptr;
  value = std::strtod(text.c_str(), &stop);
  return errno == 0 && stop == text.c_str() + text.size() && std::isfinite(value);
}

// YAML 1.1 and 1.2 boolean spellings that yaml-cpp itself accepts.
std::optional<bool> parse_bool(const std::string& text) {
  static const std::vector<std::string> kTrue = {"true", "True", "TRUE", "yes", "Yes",
                                                 "YES",  "on",   "On",   "ON"};
  static const std::vector<std::string> kFalse = {"false", "False", "FALSE", "no", "No",
                                                  "NO",    "off",   "Off",   "OFF"};
  if (std::find(kTrue.begin(), kTrue.end(), text) != kTrue.end()) return true;
  if (std::find(kFalse.begin(), kFalse.end(), text) != kFalse.end()) return false;
  return std::nullopt;
}

// "'abc'" for scalars, "a map" for the rest: what a wrong-type message says was found.
std::string describe_found(const ConfigNode& node) {
  if (node.is_scalar()) return "'" + node.scalar() + "'";
  return node.describe_type();
}

}  // namespace

const std::string& ConfigNode::scalar() const {
  if (!is_scalar()) throw_bad_input(where_, "expected a scalar value, got " + describe_type());
  return scalar_;
}

const std::vector<std::pair<std::string, ConfigNode>>& ConfigNode::entries() const {
  if (!is_map()) throw_bad_input(where_, "expected a map, got " + describe_found(*this));
  return entries_;
}

const std::vector<ConfigNode>& ConfigNode::items() const {
  if (!is_sequence()) throw_bad_input(where_, "expected a list, got " + describe_found(*this));
  return items_;
}

const ConfigNode* ConfigNode::find(const std::string& key) const {
  if (!is_map()) return nullptr;
  for (const auto& [entry_key, value] : entries_) {
    if (entry_key == key) return &value;
  }
  return nullptr;
}

int64_t ConfigNode::as_int(int64_t min_value, int64_t max_value) const {
  int64_t value = 0;
  if (!is_scalar() || !parse_int(scalar_, value)) {
    throw_bad_input(where_, "expected an integer, got " + describe_found(*this));
  }
  if (value < min_value || value > max_value) {
    throw_bad_input(where_, "value " + std::to_string(value) + " is out of range [" +
                                std::to_string(min_value) + ", " + std::to_string(max_value) + "]");
  }
  return value;
}

double ConfigNode::as_double(double min_value, double max_value) const {
  double value = 0;
  if (!is_scalar() || !parse_double(scalar_, value)) {
    throw_bad_input(where_, "expected a number, got " + describe_found(*this));
  }
  if (value < min_value || value > max_value) {
    throw_bad_input(where_, "value " + scalar_ + " is out of range [" + format_double(min_value) +
                                ", " + format_double(max_value) + "]");
  }
  return value;
}

bool ConfigNode::as_bool() const {
  std::optional<bool> value = is_scalar() ? parse_bool(scalar_) : std::nullopt;
  if (!value) throw_bad_input(where_, "expected true or false, got " + describe_found(*this));
  return *value;
}

std::string ConfigNode::describe_type() const {
  switch (type_) {
    case Type::kNull:
      return "null";
    case Type::kMap:
      return "a map";
    case Type::kSequence:
      return "a list";
    case Type::kScalar: {
      double number = 0;
      if (parse_double(scalar_, number)) return "a number";
      if (parse_bool(scalar_)) return "a boolean";
      return "a string";
    }
  }
  return "unknown";
}

ConfigNode ConfigNode::make_scalar(std::string text, SourceLocation where) {
  ConfigNode node;
  node.type_ = Type::kScalar;
  node.scalar_ = std::move(text);
  node.where_ = std::move(where);
  return node;
}

ConfigNode ConfigNode::make_map(SourceLocation where) {
  ConfigNode node;
  node.type_ = Type::kMap;
  node.where_ = std::move(where);
  return node;
}

ConfigNode ConfigNode::make_sequence(SourceLocation where) {
  ConfigNode node;
  node.type_ = Type::kSequence;
  node.where_ = std::move(where);
  return node;
}

ConfigNode ConfigNode::make_null(SourceLocation where) {
  ConfigNode node;
  node.where_ = std::move(where);
  return node;
}

void ConfigNode::set(const std::string& key, ConfigNode value) {
  if (!is_map()) throw_runtime(where_, "ConfigNode::set on " + describe_type());
  for (auto& [entry_key, entry_value] : entries_) {
    if (entry_key == key) {
      entry_value = std::move(value);
      return;
    }
  }
  entries_.emplace_back(key, std::move(value));
}

void ConfigNode::append(ConfigNode value) {
  if (!is_sequence()) throw_runtime(where_, "ConfigNode::append on " + describe_type());
  items_.push_back(std::move(value));
}

void ConfigNode::erase(const std::string& key) {
  if (!is_map()) throw_runtime(where_, "ConfigNode::erase on " + describe_type());
  std::erase_if(entries_, [&](const auto& entry) { return entry.first == key; });
}

void ConfigNode::rebase_key_paths(const std::string& path) {
  where_.key_path = path;
  for (auto& [key, value] : entries_) value.rebase_key_paths(path.empty() ? key : path + "." + key);
  for (std::size_t i = 0; i < items_.size(); ++i) {
    items_[i].rebase_key_paths(path + "[" + std::to_string(i) + "]");
  }
}

}  // namespace polyarch
