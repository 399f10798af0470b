#pragma once
// A configuration section's keys, each declared once: name, type, unit, default, range and a
// one-line doc. Parsing reads values through the table (so ranges and defaults have one home),
// unknown keys get suggestions from it, and `polyarch validate --describe` prints it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/config_tree.h"

namespace polyarch {

enum class KeyType { kInt, kNumber, kBool, kString, kChoice, kMap, kList };
std::string_view key_type_name(KeyType type);  // "int", "number", "bool", ...

struct KeySpec {
  // The key's path inside the section, dotted for nested maps: "buffers.ifmap_kib".
  std::string path;
  KeyType type = KeyType::kNumber;
  std::string unit;  // "KiB", "GHz", ...; empty for counts, names and flags
  // The default as YAML would spell it; empty = required. A default that is not a value
  // ("SoC clock") says what applies when the key is left out.
  std::string default_value;
  double min_value = 0;  // kInt and kNumber: the accepted range, inclusive
  double max_value = 0;
  std::vector<std::string> choices;  // kChoice: the accepted values
  std::string doc;
  // True for a key that by design changes no simulated figure (timing, energy, area, power,
  // temperature): a name or label the reports carry. Every other key changes a run's results
  // or is rejected (tests/driver/arch_keys_used_test.cpp holds the tables to that).
  bool descriptive = false;

  bool required() const { return default_value.empty(); }
  std::string_view leaf() const;   // the last path component: the key as written in its map
  std::string range_text() const;  // "1 .. 65536", "os | ws | is" or ""
};

// The keys of one section ("systolic", "soc", "memory", "thermal"), in the order they are
// documented and described.
struct KeyTable {
  std::string section;
  std::string summary;  // one line: what the section configures
  std::vector<KeySpec> keys;

  // The key at `path`; an unknown path is a programming error (internal error).
  const KeySpec& at(std::string_view path) const;
  // The leaf names of the keys directly inside the map at `prefix` ("" = the top level,
  // "buffers" = the keys under `buffers:`).
  std::vector<std::string> keys_under(std::string_view prefix) const;
};

// A default as the table shows it and parsing reads it back: the shortest text that reads back
// to the same value, so a struct's own default can be the one source of a key's default.
std::string default_text(double value);
std::string default_text(int64_t value);
std::string default_text(int value);
std::string default_text(bool value);

// Typed reads of one key of `reader`'s map by its spec: type, range, choices and (for an optional
// key that is absent) the default all come from the spec. Errors name file:line:col and path.
int64_t read_int(MapReader& reader, const KeySpec& spec);
// The same with an upper bound the configuration sets (e.g. at most the core count), tighter
// than the table's.
int64_t read_int_at_most(MapReader& reader, const KeySpec& spec, int64_t max_value);
double read_number(MapReader& reader, const KeySpec& spec);
bool read_bool(MapReader& reader, const KeySpec& spec);
std::string read_string(MapReader& reader, const KeySpec& spec);
std::string read_choice(MapReader& reader, const KeySpec& spec);
// A number without a value default (e.g. a clock that falls back to another): nullopt if absent.
std::optional<double> read_optional_number(MapReader& reader, const KeySpec& spec);

// Rejects a key of `node` (a map at `prefix` in the table's section) that the table does not
// declare, naming the nearest declared key; then MapReader::finish.
void finish_with_table(MapReader& reader, const KeyTable& table, std::string_view prefix);

// The table as aligned text: a header line and one line per key (key, type, unit, default,
// range, doc; a descriptive key's doc ends "[descriptive: ...]"), for `polyarch validate
// --describe`.
std::string key_table_text(const KeyTable& table);

}  // namespace polyarch
