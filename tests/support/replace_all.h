#pragma once
// Text substitution for tests that rewrite documented command lines (paths into a scratch
// directory, the program under test for the documented one).
#include <string>

namespace polyarch::test_support {

// Replaces every occurrence of `from` in `text` with `to`.
inline std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

}  // namespace polyarch::test_support
