#pragma once
// A YAML document as a plain tree that remembers, for every node, the file, line, column and
// key path it came from — also after `base:` includes are merged, when one tree mixes nodes of
// several files. Every configuration reader (arch, workload, sweep) reads through this so that
// every error can name its origin.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "base/error.h"

namespace polyarch {

class ConfigNode {
 public:
  enum class Type { kNull, kScalar, kMap, kSequence };

  Type type() const { return type_; }
  const SourceLocation& where() const { return where_; }
  bool is_map() const { return type_ == Type::kMap; }
  bool is_sequence() const { return type_ == Type::kSequence; }
  bool is_scalar() const { return type_ == Type::kScalar; }
  bool is_null() const { return type_ == Type::kNull; }

  // Scalar text; throws a bad-input error naming the location if this is not a scalar.
  const std::string& scalar() const;
  // Map entries in file order; throws if not a map.
  const std::vector<std::pair<std::string, ConfigNode>>& entries() const;
  // Sequence items; throws if not a sequence.
  const std::vector<ConfigNode>& items() const;
  // The entry with this key, or nullptr (also for non-maps).
  const ConfigNode* find(const std::string& key) const;

  // Typed scalar conversions with range checks; errors name this node's location.
  int64_t as_int(int64_t min_value, int64_t max_value) const;
  double as_double(double min_value, double max_value) const;
  bool as_bool() const;

  // A short human name for the type ("a map", "a number", ...), for error messages.
  std::string describe_type() const;

  static ConfigNode make_scalar(std::string text, SourceLocation where);
  static ConfigNode make_map(SourceLocation where);
  static ConfigNode make_sequence(SourceLocation where);
  static ConfigNode make_null(SourceLocation where);
  void set(const std::string& key, ConfigNode value);  // replaces or appends; map only
  void append(ConfigNode value);                        // sequence only
  void erase(const std::string& key);                   // map only; no-op when absent
  // Rewrites key paths of this subtree to start at `path` (after merging or moving nodes).
  void rebase_key_paths(const std::string& path);

 private:
  Type type_ = Type::kNull;
  SourceLocation where_;
  std::string scalar_;
  std::vector<std::pair<std::string, ConfigNode>> entries_;
  std::vector<ConfigNode> items_;
};

// Parses YAML text. `file_label` names the source in errors. Rejects non-UTF-8 input, YAML
// syntax errors (with their position), duplicate keys and nesting deeper than 64 levels.
ConfigNode parse_config_text(const std::string& text, const std::string& file_label);

// Reads and parses a file; a missing or unreadable file is a bad-input error naming it.
ConfigNode load_config_file(const std::filesystem::path& path);

// Loads a file and resolves `base: other.yaml` (relative to the including file, chains allowed,
// cycles rejected): the base is loaded first and this file's keys override it. Maps merge
// key by key; a sequence of maps that all carry `name` merges item by item by name (so an
// override can change one unit); any other value replaces the base's.
ConfigNode load_config_with_base(const std::filesystem::path& path);

// Merges `override_node` onto `base_node` with the rules above.
ConfigNode merge_config(const ConfigNode& base_node, const ConfigNode& override_node);

// Damerau-free Levenshtein distance, for "did you mean" suggestions.
int edit_distance(const std::string& a, const std::string& b);
// The closest candidate when it is near enough to be a plausible misspelling, else "".
std::string nearest_spelling(const std::string& word, const std::vector<std::string>& candidates);

// Reads a map node key by key. Keys not read by the time finish() is called are reported as
// unknown, with the nearest valid key suggested. Typed accessors report wrong types and
// out-of-range values at the value's file:line:col and key path.
class MapReader {
 public:
  explicit MapReader(const ConfigNode& node);  // throws if `node` is not a map

  const ConfigNode& node() const { return node_; }
  bool has(const std::string& key) const;
  const ConfigNode& required(const std::string& key);
  const ConfigNode* optional(const std::string& key);

  int64_t required_int(const std::string& key, int64_t min_value, int64_t max_value);
  int64_t optional_int(const std::string& key, int64_t fallback, int64_t min_value,
                       int64_t max_value);
  double required_double(const std::string& key, double min_value, double max_value);
  double optional_double(const std::string& key, double fallback, double min_value,
                         double max_value);
  std::string required_string(const std::string& key);
  std::string optional_string(const std::string& key, const std::string& fallback);
  // The value must be one of `allowed`; otherwise the error lists them.
  std::string required_enum(const std::string& key, const std::vector<std::string>& allowed);
  std::string optional_enum(const std::string& key, const std::string& fallback,
                            const std::vector<std::string>& allowed);
  bool optional_bool(const std::string& key, bool fallback);

  // Marks a key as known without reading it (e.g. handled elsewhere).
  void ignore(const std::string& key);
  // Throws for the first key that was never read, suggesting the nearest read/known key.
  void finish();

 private:
  const ConfigNode& node_;
  std::vector<std::string> known_keys_;
};

}  // namespace polyarch
