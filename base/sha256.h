#pragma once
// SHA-256 of files and text, for run provenance (arch_sha256, workload_sha256 in report.json).
#include <filesystem>
#include <string>

namespace polyarch {

// Lower-case hex digest of the file's bytes; a missing or unreadable file is a bad-input error.
std::string sha256_file_hex(const std::filesystem::path& path);

// Lower-case hex digest of `bytes`.
std::string sha256_hex(const std::string& bytes);

}  // namespace polyarch
