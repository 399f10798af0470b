#pragma once
// How names and strings are spelled in the text IR: a name of ordinary characters as is
// (`%conv1.w`, `%/model/Conv_output_0`), anything else quoted with C-style escapes
// (`%"my tensor"`), so that every name an ONNX exporter may produce reads back unchanged.
#include <string>
#include <string_view>

namespace polyarch::ir {

// Whether `c` may appear in an unquoted name (letters, digits and `_ . - / : @`).
bool is_bare_name_char(char c);

// "\"text\"" with `"` and `\` escaped and control characters as \n, \t or \xHH.
std::string quoted_text(std::string_view text);

// The name alone when every character is a bare-name character, else quoted_text(name).
std::string name_text(std::string_view name);

}  // namespace polyarch::ir
