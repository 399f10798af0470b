#pragma once
// A configuration tree written back as YAML: what `polyarch sweep show` writes as a point's
// resolved arch file. Reading the text back (parse_config_text) gives the same tree: the same
// keys in the same order and the same scalar texts.
#include <string>

#include "base/config_tree.h"

namespace polyarch {

std::string config_to_yaml(const ConfigNode& node);

}  // namespace polyarch
