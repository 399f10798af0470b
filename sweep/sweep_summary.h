#pragma once
// `polyarch validate` on a sweep file: every point's arch is checked, nothing is simulated.
#include <filesystem>
#include <optional>
#include <string>

namespace polyarch::sweep {

// "sweep, N point(s) (R rejected by constraints) x W workload(s)" when `path` is a sweep file
// (YAML with `parameters:`); nullopt for any other file. Bad input names file, line and key.
std::optional<std::string> sweep_file_summary(const std::filesystem::path& path);

}  // namespace polyarch::sweep
