// Models never see SystemC, only a unit's SystemC model does: no header under archs/,
// mapping/, compiler/ or base/ may reach <systemc>, directly or through another header, except
// module.h and headers under a modules/ folder. The check runs the compiler's preprocessor on
// every such header (-M: every file it pulls in; -H: the include tree, to name the chain), so
// it sees exactly what a translation unit including the header would.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kSource = POLYARCH_SOURCE_DIR;

struct Preprocessed {
  int status = 0;
  std::vector<std::string> files;  // every file the header pulls in (-M)
  std::vector<std::string> tree;   // -H lines: one dot per include depth, then the path
};

Preprocessed preprocess(const fs::path& header) {
  // -MG: a generated header missing from the source tree (the ONNX protobuf code) is listed,
  // not an error; SystemC is installed, so it is always found and read.
  const std::string command = std::string("'") + POLYARCH_CXX_COMPILER +
                              "' -std=c++20 -DSC_CPLUSPLUS=201703L -I'" + kSource.string() +
                              "' -M -MG -H -x c++ '" + header.string() + "' 2>&1";
  Preprocessed result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    result.status = -1;
    return result;
  }
  std::string output;
  char buffer[4096];
  while (size_t read = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, read);
  result.status = pclose(pipe);
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line[0] == '.') {
      result.tree.push_back(line);
      continue;
    }
    std::istringstream words(line);
    for (std::string word; words >> word;) {
      if (word != "\\" && word.back() != ':') result.files.push_back(word);
    }
  }
  return result;
}

bool is_systemc(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  return name == "systemc" || name == "systemc.h";
}

// `path` relative to the source tree when it lies inside it (the -H tree names files as found).
std::string shown(const std::string& path) {
  const std::string prefix = kSource.string() + "/";
  return path.rfind(prefix, 0) == 0 ? path.substr(prefix.size()) : path;
}

// The include chain from the header down to the first SystemC header in the -H tree.
std::string systemc_chain(const fs::path& header, const std::vector<std::string>& tree) {
  std::vector<std::string> open;  // open[d]: the latest file at depth d + 1
  for (const std::string& line : tree) {
    const size_t depth = line.find_first_not_of('.');
    if (depth == std::string::npos || depth + 1 >= line.size()) continue;
    open.resize(depth);
    open[depth - 1] = line.substr(depth + 1);
    if (is_systemc(open[depth - 1])) {
      std::string chain = fs::relative(header, kSource).string();
      for (const std::string& file : open) chain += "\n  -> " + shown(file);
      return chain;
    }
  }
  return fs::relative(header, kSource).string() + " (chain not in -H output)";
}

bool may_include_systemc(const fs::path& relative) {
  if (relative.filename() == "module.h") return true;
  return std::any_of(relative.begin(), relative.end(),
                     [](const fs::path& part) { return part == "modules"; });
}

std::vector<fs::path> model_headers() {
  std::vector<fs::path> headers;
  for (const char* folder : {"archs", "mapping", "compiler", "base"}) {
    if (!fs::is_directory(kSource / folder)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(kSource / folder)) {
      if (!entry.is_regular_file() || entry.path().extension() != ".h") continue;
      if (may_include_systemc(fs::relative(entry.path(), kSource))) continue;
      headers.push_back(entry.path());
    }
  }
  std::sort(headers.begin(), headers.end());
  return headers;
}

TEST(SystemcFreeHeaders, TheCheckSeesSystemcInAUnitModule) {
  // The check itself: a module header does reach SystemC, and the chain names it.
  const fs::path module = kSource / "archs/systolic/module.h";
  const Preprocessed result = preprocess(module);
  ASSERT_EQ(result.status, 0);
  EXPECT_TRUE(std::any_of(result.files.begin(), result.files.end(), is_systemc));
  EXPECT_NE(systemc_chain(module, result.tree).find("systemc"), std::string::npos);
}

TEST(SystemcFreeHeaders, NoModelHeaderReachesSystemc) {
  const std::vector<fs::path> headers = model_headers();
  ASSERT_GT(headers.size(), 100u);  // archs/, mapping/ and compiler/ were all found
  std::vector<std::string> failures;
  std::mutex failures_mutex;
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < headers.size(); i = next++) {
      const Preprocessed result = preprocess(headers[i]);
      std::string failure;
      if (result.status != 0) {
        failure = fs::relative(headers[i], kSource).string() + ": the preprocessor failed";
      } else if (std::any_of(result.files.begin(), result.files.end(), is_systemc)) {
        failure = systemc_chain(headers[i], result.tree);
      }
      if (failure.empty()) continue;
      const std::lock_guard<std::mutex> lock(failures_mutex);
      failures.push_back(failure);
    }
  };
  std::vector<std::thread> threads;
  const unsigned count = std::clamp(std::thread::hardware_concurrency(), 1u, 4u);
  for (unsigned t = 0; t < count; ++t) threads.emplace_back(work);
  for (std::thread& thread : threads) thread.join();
  std::sort(failures.begin(), failures.end());
  for (const std::string& failure : failures) ADD_FAILURE() << "reaches <systemc>: " << failure;
}

}  // namespace
