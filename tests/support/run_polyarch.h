#pragma once
// Runs the built polyarch program (POLYARCH_CLI, set by tests/CMakeLists.txt) from end-to-end
// tests and captures what it printed and how it exited.
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace polyarch::test_support {

struct CommandOutput {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs a shell command line and captures stdout and stderr together.
inline CommandOutput run_command(const std::string& command_line) {
  const std::string command = command_line + " 2>&1";
  CommandOutput result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 4096> buffer;
  while (std::size_t n = fread(buffer.data(), 1, buffer.size(), pipe)) {
    result.output.append(buffer.data(), n);
  }
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

inline CommandOutput run_polyarch(const std::string& arguments) {
  return run_command(std::string(POLYARCH_CLI) + " " + arguments);
}

// A file of the source tree (configs, workloads, tests/data).
inline std::string source_path(const std::string& relative) {
  return (std::filesystem::path(POLYARCH_SOURCE_DIR) / relative).string();
}

inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

}  // namespace polyarch::test_support
