#include "sweep/expression.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace polyarch::sweep {

struct ExpressionNode {
  enum class Kind { kNumber, kIdentifier, kNegate, kBinary };
  Kind kind = Kind::kNumber;
  double number = 0.0;
  std::string name;  // identifier, or the operator of kBinary ("+", "<=", ...)
  std::shared_ptr<const ExpressionNode> left;
  std::shared_ptr<const ExpressionNode> right;
};

namespace {

using NodePtr = std::shared_ptr<const ExpressionNode>;

// Parsing, evaluating and freeing the tree all recurse over it: bounding its nesting and size
// keeps a pathological constraint ("((((...", "- - - ...", "a+a+...+a") from overflowing the
// stack. Real constraints are a handful of terms.
constexpr int kMaxNesting = 64;
constexpr int kMaxOperators = 1000;

bool is_identifier_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool is_identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

class Parser {
 public:
  Parser(const std::string& text, const SourceLocation& where) : text_(text), where_(where) {}

  NodePtr parse_all(std::vector<std::string>& identifiers) {
    identifiers_ = &identifiers;
    NodePtr root = comparison();
    skip_spaces();
    if (position_ < text_.size()) fail("unexpected '" + std::string(1, text_[position_]) + "'");
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& message) const {
    SourceLocation at = where_;
    // The column points into the expression when the file position is known.
    if (at.column > 0) at.column += static_cast<int>(position_);
    throw_bad_input(at, "in constraint '" + text_ + "': " + message);
  }

  void skip_spaces() {
    while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[position_]))) {
      ++position_;
    }
  }

  bool accept(const std::string& token) {
    skip_spaces();
    if (text_.compare(position_, token.size(), token) != 0) return false;
    position_ += token.size();
    return true;
  }

  NodePtr binary(const std::string& op, NodePtr left, NodePtr right) {
    if (++operators_ > kMaxOperators) {
      fail("more than " + std::to_string(kMaxOperators) + " operators");
    }
    auto node = std::make_shared<ExpressionNode>();
    node->kind = ExpressionNode::Kind::kBinary;
    node->name = op;
    node->left = std::move(left);
    node->right = std::move(right);
    return node;
  }

  NodePtr comparison() {
    NodePtr left = sum();
    // Two-character operators first so "<=" is not read as "<" followed by "=".
    for (const char* op : {"<=", ">=", "==", "!=", "<", ">"}) {
      if (accept(op)) return binary(op, left, sum());
    }
    return left;
  }

  NodePtr sum() {
    NodePtr left = product();
    while (true) {
      if (accept("+")) {
        left = binary("+", left, product());
      } else if (accept("-")) {
        left = binary("-", left, product());
      } else {
        return left;
      }
    }
  }

  NodePtr product() {
    NodePtr left = unary();
    while (true) {
      if (accept("*")) {
        left = binary("*", left, unary());
      } else if (accept("/")) {
        left = binary("/", left, unary());
      } else {
        return left;
      }
    }
  }

  void enter_nesting() {
    if (++nesting_ > kMaxNesting) {
      fail("nested deeper than " + std::to_string(kMaxNesting) + " levels");
    }
  }

  NodePtr unary() {
    if (accept("-")) {
      enter_nesting();
      auto node = std::make_shared<ExpressionNode>();
      node->kind = ExpressionNode::Kind::kNegate;
      node->left = unary();
      --nesting_;
      return node;
    }
    return primary();
  }

  NodePtr primary() {
    skip_spaces();
    if (position_ >= text_.size()) fail("expected a number, a name or '(' at the end");
    if (accept("(")) {
      enter_nesting();
      NodePtr inner = sum();
      if (!accept(")")) fail("expected ')'");
      --nesting_;
      return inner;
    }
    char c = text_[position_];
    auto node = std::make_shared<ExpressionNode>();
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      const char* begin = text_.c_str() + position_;
      char* end = nullptr;
      node->number = std::strtod(begin, &end);
      if (end == begin) fail("malformed number");
      position_ += static_cast<std::size_t>(end - begin);
      return node;
    }
    if (is_identifier_start(c)) {
      std::size_t start = position_;
      while (position_ < text_.size() && is_identifier_char(text_[position_])) ++position_;
      node->kind = ExpressionNode::Kind::kIdentifier;
      node->name = text_.substr(start, position_ - start);
      if (std::find(identifiers_->begin(), identifiers_->end(), node->name) ==
          identifiers_->end()) {
        identifiers_->push_back(node->name);
      }
      return node;
    }
    fail("unexpected '" + std::string(1, c) + "'");
  }

  const std::string& text_;
  const SourceLocation& where_;
  std::size_t position_ = 0;
  int nesting_ = 0;    // open parentheses and unary minuses around the current position
  int operators_ = 0;  // binary operators so far
  std::vector<std::string>* identifiers_ = nullptr;
};

double evaluate_node(const ExpressionNode& node,
                     const std::function<double(const std::string&)>& lookup,
                     const Expression& expression) {
  switch (node.kind) {
    case ExpressionNode::Kind::kNumber:
      return node.number;
    case ExpressionNode::Kind::kIdentifier:
      return lookup(node.name);
    case ExpressionNode::Kind::kNegate:
      return -evaluate_node(*node.left, lookup, expression);
    case ExpressionNode::Kind::kBinary:
      break;
  }
  double left = evaluate_node(*node.left, lookup, expression);
  double right = evaluate_node(*node.right, lookup, expression);
  const std::string& op = node.name;
  if (op == "+") return left + right;
  if (op == "-") return left - right;
  if (op == "*") return left * right;
  if (op == "/") {
    if (right == 0.0) {
      throw_bad_input(expression.where(),
                      "in constraint '" + expression.text() + "': division by zero");
    }
    return left / right;
  }
  if (op == "<") return left < right ? 1.0 : 0.0;
  if (op == "<=") return left <= right ? 1.0 : 0.0;
  if (op == ">") return left > right ? 1.0 : 0.0;
  if (op == ">=") return left >= right ? 1.0 : 0.0;
  if (op == "==") return left == right ? 1.0 : 0.0;
  return left != right ? 1.0 : 0.0;
}

}  // namespace

Expression Expression::parse(const std::string& text, const SourceLocation& where) {
  Expression expression;
  expression.text_ = text;
  expression.where_ = where;
  Parser parser(expression.text_, expression.where_);
  expression.root_ = parser.parse_all(expression.identifiers_);
  return expression;
}

bool Expression::is_comparison() const {
  if (root_->kind != ExpressionNode::Kind::kBinary) return false;
  const std::string& op = root_->name;
  return op == "<" || op == "<=" || op == ">" || op == ">=" || op == "==" || op == "!=";
}

double Expression::evaluate(const std::function<double(const std::string&)>& lookup) const {
  return evaluate_node(*root_, lookup, *this);
}

}  // namespace polyarch::sweep
