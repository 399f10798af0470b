#pragma once
// Constraint expressions of sweep files, e.g. `rows * cols <= 65536`: numbers, identifiers
// (letters, digits, `_` and `.` so key paths like `memory.dram.bandwidth_gbps` work), + - * /,
// unary minus, parentheses and one comparison (< <= > >= == !=) at the top. A tiny
// recursive-descent parser is enough and keeps error positions exact.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/error.h"

namespace polyarch::sweep {

struct ExpressionNode;

class Expression {
 public:
  // Parses `text`; syntax errors are bad input at `where` with the column inside the text.
  static Expression parse(const std::string& text, const SourceLocation& where);

  const std::string& text() const { return text_; }
  const SourceLocation& where() const { return where_; }
  // Every identifier the expression reads, in order of first appearance.
  const std::vector<std::string>& identifiers() const { return identifiers_; }
  // True when the top level is a comparison (a constraint must be one).
  bool is_comparison() const;

  // Evaluates with `lookup` giving each identifier's value; a comparison yields 1 or 0.
  // Division by zero is a bad-input error naming the expression.
  double evaluate(const std::function<double(const std::string&)>& lookup) const;

 private:
  std::string text_;
  SourceLocation where_;
  std::vector<std::string> identifiers_;
  std::shared_ptr<const ExpressionNode> root_;
};

}  // namespace polyarch::sweep
