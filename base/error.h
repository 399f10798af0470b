#pragma once
// The one error type that crosses library boundaries. The CLI prints it and exits 2 for bad
// input, 1 for an internal or simulation failure; nothing below the CLI calls exit().
#include <stdexcept>
#include <string>

namespace polyarch {

enum class ErrorKind { kBadInput, kRuntime };

// Where a problem is: a file position and key path for configuration files, or a node/op name
// for graphs. Any part may be empty.
struct SourceLocation {
  std::string file;
  int line = 0;    // 1-based; 0 when unknown
  int column = 0;  // 1-based; 0 when unknown
  std::string key_path;

  // "file:line:col: key.path" with the missing parts left out.
  std::string to_string() const;
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, SourceLocation where, std::string message);

  ErrorKind kind() const { return kind_; }
  const SourceLocation& where() const { return where_; }
  const std::string& message() const { return message_; }

 private:
  ErrorKind kind_;
  SourceLocation where_;
  std::string message_;
};

[[noreturn]] void throw_bad_input(const SourceLocation& where, const std::string& message);
[[noreturn]] void throw_runtime(const SourceLocation& where, const std::string& message);

}  // namespace polyarch
