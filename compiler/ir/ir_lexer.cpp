#include "compiler/ir/ir_lexer.h"

#include <cctype>
#include <string_view>

#include "compiler/ir/name_text.h"

namespace polyarch::ir {

namespace {

constexpr std::string_view kPunctuation = "=()[]{},:<>?_";

bool is_word_start(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '-' || c == '+' || c == '.';
}

class LineLexer {
 public:
  LineLexer(std::string_view line, SourceLocation where) : line_(line), where_(std::move(where)) {}

  std::vector<Token> run() {
    std::vector<Token> tokens;
    while (true) {
      while (pos_ < line_.size() && std::isspace(static_cast<unsigned char>(line_[pos_]))) ++pos_;
      if (pos_ >= line_.size() || line_[pos_] == '#') break;
      tokens.push_back(next());
    }
    tokens.push_back({TokenKind::kEnd, "", static_cast<int>(line_.size()) + 1});
    return tokens;
  }

 private:
  [[noreturn]] void fail(std::size_t at, const std::string& message) const {
    SourceLocation where = where_;
    where.column = static_cast<int>(at) + 1;
    throw_bad_input(where, message);
  }

  Token next() {
    const std::size_t start = pos_;
    const int column = static_cast<int>(start) + 1;
    const char c = line_[pos_];
    if (c == '%') {
      ++pos_;
      if (pos_ < line_.size() && line_[pos_] == '"')
        return {TokenKind::kName, string_body(), column};
      const std::string name = run_of(is_bare_name_char);
      if (name.empty()) fail(start, "expected a name after '%'");
      return {TokenKind::kName, name, column};
    }
    if (c == '"') return {TokenKind::kString, string_body(), column};
    if (c == '-' && pos_ + 1 < line_.size() && line_[pos_ + 1] == '>') {
      pos_ += 2;
      return {TokenKind::kArrow, "->", column};
    }
    // `_` alone is an omitted operand; `_x` is a word.
    const bool lone_underscore =
        c == '_' && (pos_ + 1 >= line_.size() || !is_bare_name_char(line_[pos_ + 1]));
    if (is_word_start(c) || (c == '_' && !lone_underscore)) {
      return {TokenKind::kWord, run_of(is_word_char), column};
    }
    if (kPunctuation.find(c) != std::string_view::npos) {
      ++pos_;
      return {TokenKind::kPunct, std::string(1, c), column};
    }
    fail(start, std::string("unexpected character '") + c + "'");
  }

  static bool is_word_char(char c) { return is_bare_name_char(c) || c == '+'; }

  template <typename Predicate>
  std::string run_of(Predicate accepts) {
    const std::size_t start = pos_;
    while (pos_ < line_.size() && accepts(line_[pos_])) ++pos_;
    return std::string(line_.substr(start, pos_ - start));
  }

  // The character \xHH spells, HH starting at `at`.
  char hex_byte(std::size_t at) const {
    const auto digit = [&](std::size_t i) {
      const char c = i < line_.size() ? line_[i] : ' ';
      if (!std::isxdigit(static_cast<unsigned char>(c)))
        fail(at, "expected two hex digits after \\x");
      return std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : std::tolower(c) - 'a' + 10;
    };
    return static_cast<char>(digit(at) * 16 + digit(at + 1));
  }

  // The contents of a "..." string starting at pos_, escapes resolved.
  std::string string_body() {
    const std::size_t start = pos_++;
    std::string text;
    while (pos_ < line_.size() && line_[pos_] != '"') {
      char c = line_[pos_++];
      if (c == '\\') {
        if (pos_ >= line_.size()) break;
        c = line_[pos_++];
        if (c == 'n') {
          c = '\n';
        } else if (c == 't') {
          c = '\t';
        } else if (c == 'x') {
          c = hex_byte(pos_);
          pos_ += 2;
        }
      }
      text += c;
    }
    if (pos_ >= line_.size()) fail(start, "unterminated string");
    ++pos_;
    return text;
  }

  std::string_view line_;
  SourceLocation where_;
  std::size_t pos_ = 0;
};

}  // namespace

std::string describe(const Token& token) {
  switch (token.kind) {
    case TokenKind::kEnd:
      return "end of line";
    case TokenKind::kName:
      return "'%" + token.text + "'";
    case TokenKind::kString:
      return "string \"" + token.text + "\"";
    default:
      return "'" + token.text + "'";
  }
}

std::vector<Token> lex_line(std::string_view line, SourceLocation where) {
  return LineLexer(line, std::move(where)).run();
}

}  // namespace polyarch::ir
