#pragma once
// std::filesystem::exists without the exception: a name the operating system rejects (longer than
// NAME_MAX or PATH_MAX, a component that is not a directory, no permission) does not exist, so a
// caller reports its own located "does not exist" error instead of an uncaught filesystem_error.
// Found by fuzz_sweep_yaml (a sweep's `base:` longer than NAME_MAX).
#include <filesystem>
#include <system_error>

namespace polyarch {

inline bool path_exists(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::exists(path, error);
}

inline bool is_regular_file_path(const std::filesystem::path& path) {
  std::error_code error;
  return std::filesystem::is_regular_file(path, error);
}

}  // namespace polyarch
