#pragma once
// Walks one line's tokens for the text IR parser, with errors that say where (file:line:col)
// and what was expected there.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/ir/ir_lexer.h"

namespace polyarch::ir {

class TokenCursor {
 public:
  TokenCursor(std::vector<Token> tokens, SourceLocation where)
      : tokens_(std::move(tokens)), where_(std::move(where)) {}

  const Token& peek() const { return tokens_[index_]; }
  const Token& take();
  bool at_end() const { return peek().kind == TokenKind::kEnd; }
  bool at_punct(char c) const;
  bool at_word(std::string_view word) const;
  // Takes the token when it is that punctuation or word.
  bool accept_punct(char c);
  bool accept_word(std::string_view word);

  // Takes a token of the kind or fails with "expected <what>, found <token>".
  void expect_punct(char c);
  const Token& expect(TokenKind kind, const std::string& what);
  void expect_end();

  int64_t expect_integer(const std::string& what);
  double expect_real(const std::string& what);

  // Where the current token is, for errors raised after reading it.
  SourceLocation location() const { return location_of(peek()); }
  SourceLocation location_of(const Token& token) const;
  [[noreturn]] void fail_expected(const std::string& what) const;
  [[noreturn]] void fail_at(const Token& token, const std::string& message) const;

 private:
  // The current word read by `convert`, taken; anything else fails naming `what`.
  template <typename Convert>
  auto expect_number(const std::string& what, Convert convert) {
    const auto value =
        peek().kind == TokenKind::kWord ? convert(peek().text) : decltype(convert(peek().text))();
    if (!value) fail_expected(what);
    take();
    return *value;
  }

  std::vector<Token> tokens_;
  SourceLocation where_;
  std::size_t index_ = 0;
};

// A whole number or a real number in `text`; nullopt when it is not one.
std::optional<int64_t> integer_from_text(std::string_view text);
std::optional<double> real_from_text(std::string_view text);

}  // namespace polyarch::ir
