#pragma once
// Key paths into an arch document, as sweep parameters name them: `memory.dram.bandwidth_gbps`
// walks maps by key; `units.mxu.rows` walks the `units` list by each item's `name`.
#include <string>
#include <vector>

#include "base/config_tree.h"

namespace polyarch::sweep {

std::vector<std::string> split_key_path(const std::string& path);

// The node at `path`, or nullptr when any segment is missing.
const ConfigNode* find_key_path(const ConfigNode& root, const std::string& path);

// Checks that `path` can be set in `root`: every segment but the last must exist, and the last
// one's parent must be a map (a new key is allowed; the arch parser then validates it). Errors
// are bad input at `where`, listing the keys or unit names that do exist.
void check_key_path(const ConfigNode& root, const std::string& path, const SourceLocation& where);

// Key paths of every scalar in the document, in file order (list items by their `name`).
std::vector<std::string> scalar_key_paths(const ConfigNode& root);

// The one scalar key path ending in `.name` (or equal to it), or "" when there is none or more
// than one: lets constraints say `cols` for `units.npu.cols` when only one unit has cols.
std::string unique_key_path_for(const ConfigNode& root, const std::string& name,
                                bool* ambiguous = nullptr);

// Sets the value at `path` (after check_key_path), replacing or adding the last key.
void set_key_path(ConfigNode& root, const std::string& path, const ConfigNode& value);

}  // namespace polyarch::sweep
