#include "tests/onnx_conformance/refusal_group.h"

#include <regex>
#include <utility>
#include <vector>

namespace polyarch::onnx_conformance {

std::string refusal_group(const std::string& reason) {
  // Applied in order; each keeps what says why (the op type, the element type, the opset).
  static const std::vector<std::pair<std::regex, std::string>> rewrites = {
      {std::regex("^model\\.onnx: "), ""},
      {std::regex("^graph\\.node\\[[0-9]+\\] '[^']*' \\(([^)]*)\\): "), "$1: "},
      {std::regex("^graph\\.(input|output)\\[[0-9]+\\]: "), "graph $1: "},
      {std::regex("\\b(value|constant|result|tensor|output|input) '[^']*'"), "$1 '…'"},
      {std::regex("^input_[0-9]+\\.npy: "), "an input .npy: "},
      {std::regex("operand [0-9]+"), "an operand"},
      // What follows a semicolon is advice ("convert it with ...", "--allow-unknown costs it").
      {std::regex("; .*$"), ""},
  };
  std::string group = reason;
  for (const auto& [pattern, replacement] : rewrites) {
    group = std::regex_replace(group, pattern, replacement);
  }
  return group;
}

}  // namespace polyarch::onnx_conformance
