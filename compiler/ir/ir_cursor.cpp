#include "compiler/ir/ir_cursor.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace polyarch::ir {

const Token& TokenCursor::take() {
  const Token& token = tokens_[index_];
  if (token.kind != TokenKind::kEnd) ++index_;
  return token;
}

bool TokenCursor::at_punct(char c) const {
  return peek().kind == TokenKind::kPunct && peek().text[0] == c;
}

bool TokenCursor::at_word(std::string_view word) const {
  return peek().kind == TokenKind::kWord && peek().text == word;
}

bool TokenCursor::accept_punct(char c) {
  if (!at_punct(c)) return false;
  take();
  return true;
}

bool TokenCursor::accept_word(std::string_view word) {
  if (!at_word(word)) return false;
  take();
  return true;
}

void TokenCursor::expect_punct(char c) {
  if (!accept_punct(c)) fail_expected(std::string("'") + c + "'");
}

const Token& TokenCursor::expect(TokenKind kind, const std::string& what) {
  if (peek().kind != kind) fail_expected(what);
  return take();
}

void TokenCursor::expect_end() {
  if (!at_end()) fail_expected("end of line");
}

int64_t TokenCursor::expect_integer(const std::string& what) {
  return expect_number(what, integer_from_text);
}

double TokenCursor::expect_real(const std::string& what) {
  return expect_number(what, real_from_text);
}

SourceLocation TokenCursor::location_of(const Token& token) const {
  SourceLocation where = where_;
  where.column = token.column;
  return where;
}

void TokenCursor::fail_expected(const std::string& what) const {
  fail_at(peek(), "expected " + what + ", found " + describe(peek()));
}

void TokenCursor::fail_at(const Token& token, const std::string& message) const {
  throw_bad_input(location_of(token), message);
}

std::optional<int64_t> integer_from_text(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

std::optional<double> real_from_text(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  // from_chars does not read the signed special values on every library; spell them out.
  if (text == "inf") return std::numeric_limits<double>::infinity();
  if (text == "-inf") return -std::numeric_limits<double>::infinity();
  if (text == "nan" || text == "-nan") return std::nan("");
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

}  // namespace polyarch::ir
