#pragma once
// Tokens of one line of the text IR (docs/ir.md): `%names`, words (keywords, numbers, types,
// `2x2`), "strings" and punctuation. `#` starts a comment that runs to the end of the line.
#include <string>
#include <string_view>
#include <vector>

#include "base/error.h"

namespace polyarch::ir {

enum class TokenKind { kName, kWord, kString, kPunct, kArrow, kEnd };

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string text;  // a name or string unquoted and unescaped; a punctuation character
  int column = 0;    // 1-based
};

// What a token reads as in an error message: "'%x'", "'->'", "end of line".
std::string describe(const Token& token);

// The tokens of `line`, ending with a kEnd token; a malformed token (an unterminated string, a
// stray character) is a bad-input error at `where` with the token's column.
std::vector<Token> lex_line(std::string_view line, SourceLocation where);

}  // namespace polyarch::ir
