#include "compiler/ir/name_text.h"

#include <cctype>
#include <cstdio>

namespace polyarch::ir {

bool is_bare_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' || c == '-' ||
         c == '/' || c == ':' || c == '@';
}

std::string quoted_text(std::string_view text) {
  std::string quoted = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += c;
    } else if (c == '\n') {
      quoted += "\\n";
    } else if (c == '\t') {
      quoted += "\\t";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof(escape), "\\x%02x", static_cast<unsigned char>(c));
      quoted += escape;
    } else {
      quoted += c;
    }
  }
  return quoted + "\"";
}

std::string name_text(std::string_view name) {
  if (name.empty()) return quoted_text(name);
  for (char c : name) {
    if (!is_bare_name_char(c)) return quoted_text(name);
  }
  return std::string(name);
}

}  // namespace polyarch::ir
