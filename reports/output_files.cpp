#include "reports/output_files.h"

#include <fstream>
#include <system_error>

#include "base/error.h"

namespace polyarch::reports {

namespace fs = std::filesystem;

namespace {

void remove_quietly(const std::vector<fs::path>& paths) {
  std::error_code ignored;
  for (const fs::path& path : paths) fs::remove(path, ignored);
}

}  // namespace

void write_files_atomically(const fs::path& directory, const std::vector<NamedContent>& files) {
  std::error_code error;
  fs::create_directories(directory, error);
  if (error) {
    throw_runtime({directory.string(), 0, 0, ""}, "cannot create output directory: " + error.message());
  }
  std::vector<fs::path> staged;
  for (const auto& [name, content] : files) {
    fs::path temporary = directory / ("." + name + ".partial");
    staged.push_back(temporary);
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    out.close();
    if (!out) {
      remove_quietly(staged);
      throw_runtime({temporary.string(), 0, 0, ""}, "cannot write output file");
    }
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    fs::rename(staged[i], directory / files[i].first, error);
    if (error) {
      remove_quietly(staged);
      throw_runtime({(directory / files[i].first).string(), 0, 0, ""},
                    "cannot move output file into place: " + error.message());
    }
  }
}

}  // namespace polyarch::reports
