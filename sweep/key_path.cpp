#include "sweep/key_path.h"

#include <sstream>

namespace polyarch::sweep {

namespace {

// The child of a map by key, or of a sequence by its items' `name`.
const ConfigNode* child(const ConfigNode& node, const std::string& segment) {
  if (node.is_map()) return node.find(segment);
  if (!node.is_sequence()) return nullptr;
  for (const ConfigNode& item : node.items()) {
    const ConfigNode* name = item.find("name");
    if (name != nullptr && name->is_scalar() && name->scalar() == segment) return &item;
  }
  return nullptr;
}

std::vector<std::string> child_names(const ConfigNode& node) {
  std::vector<std::string> names;
  if (node.is_map()) {
    for (const auto& [key, value] : node.entries()) names.push_back(key);
  } else if (node.is_sequence()) {
    for (const ConfigNode& item : node.items()) {
      const ConfigNode* name = item.find("name");
      if (name != nullptr && name->is_scalar()) names.push_back(name->scalar());
    }
  }
  return names;
}

ConfigNode with_child_set(const ConfigNode& node, const std::vector<std::string>& segments,
                          std::size_t index, const ConfigNode& value) {
  const std::string& segment = segments[index];
  if (node.is_map()) {
    ConfigNode copy = node;
    if (index + 1 == segments.size()) {
      copy.set(segment, value);
    } else {
      copy.set(segment, with_child_set(*node.find(segment), segments, index + 1, value));
    }
    return copy;
  }
  // A sequence: rebuild it with the named item replaced (ConfigNode items are immutable).
  ConfigNode copy = ConfigNode::make_sequence(node.where());
  for (const ConfigNode& item : node.items()) {
    const ConfigNode* name = item.find("name");
    bool match = name != nullptr && name->is_scalar() && name->scalar() == segment;
    copy.append(match ? with_child_set(item, segments, index + 1, value) : item);
  }
  return copy;
}

void collect_scalar_paths(const ConfigNode& node, const std::string& prefix,
                          std::vector<std::string>& paths) {
  auto join = [&](const std::string& segment) {
    return prefix.empty() ? segment : prefix + "." + segment;
  };
  if (node.is_scalar()) {
    paths.push_back(prefix);
  } else if (node.is_map()) {
    for (const auto& [key, value] : node.entries()) collect_scalar_paths(value, join(key), paths);
  } else if (node.is_sequence()) {
    for (const ConfigNode& item : node.items()) {
      const ConfigNode* name = item.find("name");
      if (name != nullptr && name->is_scalar()) {
        collect_scalar_paths(item, join(name->scalar()), paths);
      }
    }
  }
}

}  // namespace

std::vector<std::string> scalar_key_paths(const ConfigNode& root) {
  std::vector<std::string> paths;
  collect_scalar_paths(root, "", paths);
  return paths;
}

std::string unique_key_path_for(const ConfigNode& root, const std::string& name, bool* ambiguous) {
  std::string found;
  int matches = 0;
  for (const std::string& path : scalar_key_paths(root)) {
    bool match = path == name || (path.size() > name.size() &&
                                  path.compare(path.size() - name.size(), name.size(), name) == 0 &&
                                  path[path.size() - name.size() - 1] == '.');
    if (match) {
      found = path;
      ++matches;
    }
  }
  if (ambiguous != nullptr) *ambiguous = matches > 1;
  return matches == 1 ? found : "";
}

std::vector<std::string> split_key_path(const std::string& path) {
  std::vector<std::string> segments;
  std::stringstream stream(path);
  std::string segment;
  while (std::getline(stream, segment, '.')) segments.push_back(segment);
  return segments;
}

const ConfigNode* find_key_path(const ConfigNode& root, const std::string& path) {
  const ConfigNode* node = &root;
  for (const std::string& segment : split_key_path(path)) {
    node = child(*node, segment);
    if (node == nullptr) return nullptr;
  }
  return node;
}

void check_key_path(const ConfigNode& root, const std::string& path, const SourceLocation& where) {
  std::vector<std::string> segments = split_key_path(path);
  for (const std::string& segment : segments) {
    if (segment.empty()) throw_bad_input(where, "malformed key path '" + path + "'");
  }
  const ConfigNode* node = &root;
  std::string walked;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    const std::string& segment = segments[i];
    bool last = i + 1 == segments.size();
    if (last && node->is_map()) return;
    const ConfigNode* next = child(*node, segment);
    if (next == nullptr || last) {
      std::vector<std::string> names = child_names(*node);
      std::string message = "parameter '" + path + "': the base arch has no '" + segment + "'" +
                            (walked.empty() ? "" : " under '" + walked + "'");
      if (last) message = "parameter '" + path + "': '" + walked + "' is not a map";
      std::string suggestion = nearest_spelling(segment, names);
      if (!suggestion.empty()) {
        message += "; did you mean '" + suggestion + "'?";
      } else if (!names.empty() && !last) {
        message += " (it has:";
        for (const std::string& name : names) message += " " + name;
        message += ")";
      }
      throw_bad_input(where, message);
    }
    walked += (walked.empty() ? "" : ".") + segment;
    node = next;
  }
}

void set_key_path(ConfigNode& root, const std::string& path, const ConfigNode& value) {
  root = with_child_set(root, split_key_path(path), 0, value);
}

}  // namespace polyarch::sweep
