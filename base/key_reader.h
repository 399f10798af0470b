#pragma once
// Reading a section through its key table while noting what each key resolved to: the value
// written, or the table's default. The notes, nested by path in the table's order, are the
// section's description (report.json's `arch`, part of every mapping-decision key), so a key is
// spelt once, in its table row, and the description cannot miss a key the parser reads.
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/config_tree.h"
#include "base/key_table.h"

namespace polyarch {

// What the keys of one section resolved to, by spec path.
class ResolvedKeys {
 public:
  void set(const std::string& path, nlohmann::ordered_json value);
  // A value that is no key but belongs in the description (a count that follows from keys),
  // shown right after the key at `after`, in the same map.
  void set_derived(const std::string& after, const std::string& name, nlohmann::ordered_json value);
  // The values nested by path ("buffers.ifmap_kib" inside "buffers") in the order of `table`;
  // keys nothing was noted for are left out.
  nlohmann::ordered_json json(const KeyTable& table) const;

 private:
  struct Derived {
    std::string after;
    std::string name;
    nlohmann::ordered_json value;
  };
  std::map<std::string, nlohmann::ordered_json> values_;
  std::vector<Derived> derived_;
};

// One map of a section, read through the section's table: keys are named by their leaf inside
// the map at `prefix`, and every typed read notes its result. Errors are those of the typed reads
// of base/key_table.h: file:line:col and the key's path.
class KeyReader {
 public:
  // Reads `reader`'s map as the section's top level; the caller finishes `reader`.
  KeyReader(MapReader& reader, const KeyTable& table, ResolvedKeys& resolved);
  KeyReader(const KeyReader&) = delete;
  KeyReader& operator=(const KeyReader&) = delete;

  // The map at `key`, which must be written.
  KeyReader nested(std::string_view key);
  // The map at `key`, or an empty map where it is not written, so its keys resolve to their
  // defaults.
  KeyReader nested_or_defaults(std::string_view key);

  const KeySpec& spec(std::string_view key) const;
  MapReader& map_reader() { return *reader_; }

  int64_t read_int(std::string_view key);
  // With an upper bound the configuration sets, tighter than the table's.
  int64_t read_int_at_most(std::string_view key, int64_t max_value);
  double read_number(std::string_view key);
  // A number or int without a value default: nullopt (noted as null) if absent.
  std::optional<double> read_optional_number(std::string_view key);
  std::optional<int64_t> read_optional_int(std::string_view key);
  bool read_bool(std::string_view key);
  std::string read_string(std::string_view key);
  std::string read_choice(std::string_view key);
  // Notes what a key read some other way resolved to (a list, a map of free keys), or a key that
  // another key makes irrelevant.
  void note(std::string_view key, nlohmann::ordered_json value);
  // Notes a value that follows from the keys, shown after `after` (see ResolvedKeys).
  void note_derived(std::string_view after, const std::string& name, nlohmann::ordered_json value);

  // Rejects a key the table does not declare in this map, naming the nearest declared one; then
  // MapReader::finish.
  void finish();

 private:
  KeyReader(const ConfigNode* node, SourceLocation absent_at, const KeyTable& table,
            ResolvedKeys& resolved, std::string prefix);

  const KeyTable& table_;
  ResolvedKeys& resolved_;
  std::string prefix_;                    // the map's path, "" at the top level
  std::optional<ConfigNode> absent_map_;  // read in place of a map that is not written
  std::optional<MapReader> own_reader_;
  MapReader* reader_;
};

}  // namespace polyarch
