#include "base/key_reader.h"

namespace polyarch {

namespace {

// `value` at `path` inside `json`, creating the maps on the way.
void place(nlohmann::ordered_json& json, std::string_view path, nlohmann::ordered_json value) {
  nlohmann::ordered_json* map = &json;
  for (std::size_t dot = path.find('.'); dot != std::string_view::npos; dot = path.find('.')) {
    map = &(*map)[std::string(path.substr(0, dot))];
    path = path.substr(dot + 1);
  }
  (*map)[std::string(path)] = std::move(value);
}

// `name` in the map that holds the key at `path`.
std::string sibling_path(const std::string& path, const std::string& name) {
  const std::size_t dot = path.rfind('.');
  return dot == std::string::npos ? name : path.substr(0, dot + 1) + name;
}

// `value`, noted as what the key of `spec` resolved to.
template <class Value>
Value noted(ResolvedKeys& resolved, const KeySpec& spec, Value value) {
  resolved.set(spec.path, value);
  return value;
}

// The same for a key without a value default: null when absent.
template <class Value>
std::optional<Value> noted_optional(ResolvedKeys& resolved, const KeySpec& spec,
                                    std::optional<Value> value) {
  resolved.set(spec.path, value ? nlohmann::ordered_json(*value) : nullptr);
  return value;
}

}  // namespace

void ResolvedKeys::set(const std::string& path, nlohmann::ordered_json value) {
  values_[path] = std::move(value);
}

void ResolvedKeys::set_derived(const std::string& after, const std::string& name,
                               nlohmann::ordered_json value) {
  derived_.push_back({after, name, std::move(value)});
}

nlohmann::ordered_json ResolvedKeys::json(const KeyTable& table) const {
  nlohmann::ordered_json json = nlohmann::ordered_json::object();
  for (const KeySpec& spec : table.keys) {
    if (auto found = values_.find(spec.path); found != values_.end()) {
      place(json, spec.path, found->second);
    }
    for (const Derived& derived : derived_) {
      if (derived.after == spec.path)
        place(json, sibling_path(spec.path, derived.name), derived.value);
    }
  }
  return json;
}

KeyReader::KeyReader(MapReader& reader, const KeyTable& table, ResolvedKeys& resolved)
    : table_(table), resolved_(resolved), reader_(&reader) {}

KeyReader::KeyReader(const ConfigNode* node, SourceLocation absent_at, const KeyTable& table,
                     ResolvedKeys& resolved, std::string prefix)
    : table_(table), resolved_(resolved), prefix_(std::move(prefix)) {
  if (node == nullptr) node = &absent_map_.emplace(ConfigNode::make_map(std::move(absent_at)));
  reader_ = &own_reader_.emplace(*node);
}

KeyReader KeyReader::nested(std::string_view key) {
  const KeySpec& map = spec(key);
  return KeyReader(&reader_->required(std::string(key)), {}, table_, resolved_, map.path);
}

KeyReader KeyReader::nested_or_defaults(std::string_view key) {
  const KeySpec& map = spec(key);
  return KeyReader(reader_->optional(std::string(key)), reader_->node().where(), table_, resolved_,
                   map.path);
}

const KeySpec& KeyReader::spec(std::string_view key) const {
  return table_.at(prefix_.empty() ? std::string(key) : prefix_ + "." + std::string(key));
}

int64_t KeyReader::read_int(std::string_view key) {
  const KeySpec& key_spec = spec(key);
  return noted(resolved_, key_spec, polyarch::read_int(*reader_, key_spec));
}

int64_t KeyReader::read_int_at_most(std::string_view key, int64_t max_value) {
  const KeySpec& key_spec = spec(key);
  return noted(resolved_, key_spec, polyarch::read_int_at_most(*reader_, key_spec, max_value));
}

double KeyReader::read_number(std::string_view key) {
  const KeySpec& key_spec = spec(key);
  return noted(resolved_, key_spec, polyarch::read_number(*reader_, key_spec));
}

std::optional<double> KeyReader::read_optional_number(std::string_view key) {
  const KeySpec& key_spec = spec(key);
  return noted_optional(resolved_, key_spec, polyarch::read_optional_number(*reader_, key_spec));
}

std::optional<int64_t> KeyReader::read_optional_int(std::string_view key) {
  const KeySpec& key_spec = spec(key);
  const std::string leaf(key);
  std::optional<int64_t> value;
  reader_->ignore(leaf);
  if (reader_->has(leaf)) {
    value = reader_->required_int(leaf, static_cast<int64_t>(key_spec.min_value),
                                  static_cast<int64_t>(key_spec.max_value));
  }
  return noted_optional(resolved_, key_spec, value);
}

bool KeyReader::read_bool(std::string_view key) {
  const KeySpec& key_spec = spec(key);
  return noted(resolved_, key_spec, polyarch::read_bool(*reader_, key_spec));
}

std::string KeyReader::read_string(std::string_view key) {
  const KeySpec& key_spec = spec(key);
  return noted(resolved_, key_spec, polyarch::read_string(*reader_, key_spec));
}

std::string KeyReader::read_choice(std::string_view key) {
  const KeySpec& key_spec = spec(key);
  return noted(resolved_, key_spec, polyarch::read_choice(*reader_, key_spec));
}

void KeyReader::note(std::string_view key, nlohmann::ordered_json value) {
  resolved_.set(spec(key).path, std::move(value));
}

void KeyReader::note_derived(std::string_view after, const std::string& name,
                             nlohmann::ordered_json value) {
  resolved_.set_derived(spec(after).path, name, std::move(value));
}

void KeyReader::finish() { finish_with_table(*reader_, table_, prefix_); }

}  // namespace polyarch
