// `base:` includes and the merge rules documented in config_tree.h.
#include <algorithm>

#include "base/config_tree.h"
#include "base/path_exists.h"

namespace polyarch {

namespace {

// True when every item is a map with a scalar `name`: such lists merge by name, so an override
// file can change one unit of its base without repeating the others.
bool is_named_list(const ConfigNode& node) {
  if (!node.is_sequence() || node.items().empty()) return false;
  return std::all_of(node.items().begin(), node.items().end(), [](const ConfigNode& item) {
    const ConfigNode* name = item.find("name");
    return name != nullptr && name->is_scalar();
  });
}

const ConfigNode* find_named(const ConfigNode& list, const std::string& name) {
  for (const ConfigNode& item : list.items()) {
    if (item.find("name")->scalar() == name) return &item;
  }
  return nullptr;
}

ConfigNode merge_nodes(const ConfigNode& base_node, const ConfigNode& override_node) {
  if (base_node.is_map() && override_node.is_map()) {
    ConfigNode merged = ConfigNode::make_map(override_node.where());
    for (const auto& [key, value] : base_node.entries()) {
      const ConfigNode* replacement = override_node.find(key);
      merged.set(key, replacement ? merge_nodes(value, *replacement) : value);
    }
    for (const auto& [key, value] : override_node.entries()) {
      if (base_node.find(key) == nullptr) merged.set(key, value);
    }
    return merged;
  }
  if (is_named_list(base_node) && is_named_list(override_node)) {
    ConfigNode merged = ConfigNode::make_sequence(override_node.where());
    for (const ConfigNode& item : base_node.items()) {
      const ConfigNode* replacement = find_named(override_node, item.find("name")->scalar());
      merged.append(replacement ? merge_nodes(item, *replacement) : item);
    }
    for (const ConfigNode& item : override_node.items()) {
      if (find_named(base_node, item.find("name")->scalar()) == nullptr) merged.append(item);
    }
    return merged;
  }
  return override_node;
}

std::filesystem::path identity_of(const std::filesystem::path& path) {
  std::error_code error;
  std::filesystem::path canonical = std::filesystem::weakly_canonical(path, error);
  return error ? path.lexically_normal() : canonical;
}

ConfigNode load_chain(const std::filesystem::path& path,
                      std::vector<std::filesystem::path>& chain) {
  ConfigNode tree = load_config_file(path);
  const ConfigNode* base_entry = tree.find("base");
  if (base_entry == nullptr) return tree;

  if (!base_entry->is_scalar() || base_entry->scalar().empty()) {
    throw_bad_input(base_entry->where(),
                    "expected a file name for 'base', got " + base_entry->describe_type());
  }
  std::filesystem::path base_path = base_entry->scalar();
  if (base_path.is_relative()) base_path = path.parent_path() / base_path;
  const std::filesystem::path base_identity = identity_of(base_path);
  if (std::find(chain.begin(), chain.end(), base_identity) != chain.end()) {
    std::string cycle;
    for (const auto& file : chain) cycle += file.string() + " -> ";
    throw_bad_input(base_entry->where(),
                    "base files form a cycle: " + cycle + base_identity.string());
  }
  if (!path_exists(base_path)) {
    throw_bad_input(base_entry->where(), "base file '" + base_path.string() + "' not found");
  }
  chain.push_back(base_identity);
  ConfigNode base_tree = load_chain(base_path, chain);
  chain.pop_back();

  tree.erase("base");
  return merge_nodes(base_tree, tree);
}

}  // namespace

ConfigNode merge_config(const ConfigNode& base_node, const ConfigNode& override_node) {
  ConfigNode merged = merge_nodes(base_node, override_node);
  merged.rebase_key_paths(base_node.where().key_path);
  return merged;
}

ConfigNode load_config_with_base(const std::filesystem::path& path) {
  std::vector<std::filesystem::path> chain = {identity_of(path)};
  ConfigNode merged = load_chain(path, chain);
  merged.rebase_key_paths("");
  return merged;
}

}  // namespace polyarch
