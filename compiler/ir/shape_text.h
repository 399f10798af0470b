#pragma once
// "[1,3,224,224]": how shapes appear in IR dumps and error messages.
#include <cstdint>
#include <string>
#include <vector>

namespace polyarch::ir {

inline std::string shape_text(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) text += ',';
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

}  // namespace polyarch::ir
