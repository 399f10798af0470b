#include "base/error.h"

namespace polyarch {

std::string SourceLocation::to_string() const {
  // Built with append() rather than operator+: GCC 12 warns falsely (-Wrestrict) on the latter.
  std::string text = file;
  if (line > 0) {
    text.append(":").append(std::to_string(line));
    if (column > 0) text.append(":").append(std::to_string(column));
  }
  if (!key_path.empty()) {
    if (!text.empty()) text.append(": ");
    text.append(key_path);
  }
  return text;
}

namespace {
std::string compose(const SourceLocation& where, const std::string& message) {
  std::string location = where.to_string();
  return location.empty() ? message : location + ": " + message;
}
}  // namespace

Error::Error(ErrorKind kind, SourceLocation where, std::string message)
    : std::runtime_error(compose(where, message)),
      kind_(kind),
      where_(std::move(where)),
      message_(std::move(message)) {}

void throw_bad_input(const SourceLocation& where, const std::string& message) {
  throw Error(ErrorKind::kBadInput, where, message);
}

void throw_runtime(const SourceLocation& where, const std::string& message) {
  throw Error(ErrorKind::kRuntime, where, message);
}

}  // namespace polyarch
