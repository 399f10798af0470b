#include "compiler/passes/einsum_equation.h"

#include <algorithm>
#include <cctype>

#include "compiler/passes/onnx_node.h"
#include "compiler/passes/onnx_shape_context.h"

namespace polyarch::passes {

namespace {

std::string without_spaces(const std::string& text) {
  std::string kept;
  for (char c : text) {
    if (c != ' ') kept += c;
  }
  return kept;
}

std::vector<std::string> split_terms(const std::string& text) {
  std::vector<std::string> terms(1);
  for (char c : text) {
    if (c == ',') {
      terms.emplace_back();
    } else {
      terms.back() += c;
    }
  }
  return terms;
}

// The labels an ellipsis of `count` axes stands for: the last `count` of the longest one, so
// that the axes align from the right as NumPy's do.
std::string ellipsis_labels(int64_t count, int64_t longest) {
  std::string labels;
  for (int64_t i = longest - count; i < longest; ++i) labels += static_cast<char>('0' + i);
  return labels;
}

}  // namespace

std::string EinsumEquation::summed() const {
  std::string labels;
  for (const auto& [label, extent] : extents) {
    if (result.find(label) == std::string::npos) labels += label;
  }
  return labels;
}

std::vector<int64_t> EinsumEquation::result_shape() const {
  std::vector<int64_t> shape;
  for (char label : result) shape.push_back(extents.at(label));
  return shape;
}

EinsumEquation parse_einsum(const ir::Op& op, const std::string& text,
                            const std::vector<std::vector<int64_t>>& shapes) {
  const auto fail = [&](const std::string& why) {
    node_error(op, "Einsum equation '" + text + "' " + why);
  };
  const std::string equation = without_spaces(text);
  const std::size_t arrow = equation.find("->");
  const std::vector<std::string> terms = split_terms(equation.substr(0, arrow));
  if (terms.size() != shapes.size()) {
    fail("names " + std::to_string(terms.size()) + " operands, the node has " +
         std::to_string(shapes.size()));
  }
  // Axes each operand's ellipsis stands for, and the most of any.
  std::vector<int64_t> ellipsis_axes(terms.size(), 0);
  int64_t longest = 0;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const std::size_t dots = terms[i].find("...");
    const auto letters =
        static_cast<int64_t>(terms[i].size() - (dots == std::string::npos ? 0 : 3));
    const auto rank = static_cast<int64_t>(shapes[i].size());
    if (dots == std::string::npos ? rank != letters : rank < letters) {
      fail("does not match operand " + std::to_string(i) + " of shape " + shape_string(shapes[i]));
    }
    if (dots != std::string::npos) ellipsis_axes[i] = rank - letters;
    longest = std::max(longest, ellipsis_axes[i]);
  }
  EinsumEquation parsed;
  std::map<char, int> occurrences;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    std::string labels = terms[i];
    const std::size_t dots = labels.find("...");
    if (dots != std::string::npos) {
      labels.replace(dots, 3, ellipsis_labels(ellipsis_axes[i], longest));
    }
    for (std::size_t axis = 0; axis < labels.size(); ++axis) {
      const char label = labels[axis];
      if (!std::isalpha(static_cast<unsigned char>(label)) && !std::isdigit(label)) {
        fail("has the character '" + std::string(1, label) + "'");
      }
      const auto [found, inserted] = parsed.extents.emplace(label, shapes[i][axis]);
      if (!inserted && found->second != shapes[i][axis]) {
        fail("gives label '" + std::string(1, label) + "' the extents " +
             std::to_string(found->second) + " and " + std::to_string(shapes[i][axis]) +
             " (broadcasting is not supported)");
      }
      ++occurrences[label];
    }
    parsed.operands.push_back(labels);
  }
  if (arrow != std::string::npos) {
    parsed.result = equation.substr(arrow + 2);
    const std::size_t dots = parsed.result.find("...");
    if (dots != std::string::npos)
      parsed.result.replace(dots, 3, ellipsis_labels(longest, longest));
    for (char label : parsed.result) {
      if (parsed.extents.count(label) == 0 ||
          std::count(parsed.result.begin(), parsed.result.end(), label) > 1) {
        fail("has result label '" + std::string(1, label) + "' that no operand has once");
      }
    }
  } else {
    // NumPy's implicit result: the ellipsis axes, then the letters used once, sorted.
    parsed.result = ellipsis_labels(longest, longest);
    for (const auto& [label, count] : occurrences) {
      if (count == 1 && std::isalpha(static_cast<unsigned char>(label))) parsed.result += label;
    }
  }
  return parsed;
}

}  // namespace polyarch::passes
