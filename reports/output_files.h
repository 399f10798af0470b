#pragma once
// Writes a set of files into a directory so that a failure leaves nothing half-written: every
// file is written to a temporary name first and renamed into place only when all succeeded.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace polyarch::reports {

using NamedContent = std::pair<std::string, std::string>;  // file name, bytes

void write_files_atomically(const std::filesystem::path& directory,
                            const std::vector<NamedContent>& files);

}  // namespace polyarch::reports
