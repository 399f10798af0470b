// The include graph points one way (docs/architecture.md): the CLI calls only the driver and
// the sweep (the Python module calls the same), reports/ reads only results, sim/ never reaches up into the unit kinds, the driver
// or the CLI, and nothing below the CLI includes it. Each rule reads every source file of a folder and fails naming the file, the line
// and the include that breaks it.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

const fs::path kSource = POLYARCH_SOURCE_DIR;

struct Rule {
  std::string folder;                   // whose files are read
  std::vector<std::string> forbidden;   // include prefixes they may not use
  std::vector<std::string> exceptions;  // exact includes allowed despite a forbidden prefix
};

// "file:line: #include ..." for every include of `rule.folder` that the rule forbids.
std::vector<std::string> violations(const Rule& rule) {
  std::vector<std::string> found;
  for (const auto& entry : fs::recursive_directory_iterator(kSource / rule.folder)) {
    const std::string extension = entry.path().extension().string();
    if (extension != ".h" && extension != ".cpp") continue;
    std::ifstream in(entry.path());
    int line_number = 0;
    for (std::string line; std::getline(in, line);) {
      ++line_number;
      const std::string prefix = "#include \"";
      if (line.rfind(prefix, 0) != 0) continue;
      const std::string included = line.substr(prefix.size(), line.find('"', prefix.size()) -
                                                                  prefix.size());
      bool allowed = false;
      for (const std::string& exception : rule.exceptions) allowed |= included == exception;
      for (const std::string& forbidden : rule.forbidden) {
        if (!allowed && included.rfind(forbidden, 0) == 0) {
          found.push_back(fs::relative(entry.path(), kSource).string() + ":" +
                          std::to_string(line_number) + ": " + line);
        }
      }
    }
  }
  return found;
}

void expect_no_violations(const Rule& rule) {
  const std::vector<std::string> found = violations(rule);
  std::string listing;
  for (const std::string& violation : found) listing += "  " + violation + "\n";
  EXPECT_TRUE(found.empty()) << rule.folder << "/ includes what it may not:\n" << listing;
}

TEST(IncludeDirection, ReportsReadOnlyTheRunResult) {
  expect_no_violations(
      {"reports", {"archs/", "driver/", "sweep/", "sim/", "mapping/", "cli/"}, {"sim/result.h"}});
}

TEST(IncludeDirection, SimNeverIncludesTheKindsOrAnythingAboveThem) {
  expect_no_violations({"sim", {"archs/", "driver/", "sweep/", "reports/", "cli/"}, {}});
}

TEST(IncludeDirection, ModelsAndCompilerStayBelowTheDriver) {
  for (const std::string folder : {"base", "compiler", "mapping", "archs"}) {
    expect_no_violations({folder, {"driver/", "sweep/", "reports/", "cli/"}, {}});
  }
  expect_no_violations({"base", {"compiler/", "mapping/", "sim/", "archs/"}, {}});
  expect_no_violations({"compiler", {"mapping/", "sim/", "archs/"}, {}});
}

TEST(IncludeDirection, OnlyTheCliIncludesTheCli) {
  for (const std::string folder : {"driver", "sweep"}) {
    expect_no_violations({folder, {"cli/"}, {}});
  }
}

TEST(IncludeDirection, TheCliCallsOnlyTheDriverAndTheSweep) {
  // It formats arguments and output; compiling, mapping and simulating are the driver's.
  expect_no_violations({"cli", {"archs/", "compiler/", "mapping/", "sim/"}, {}});
}

TEST(IncludeDirection, ThePythonModuleCallsWhatTheProgramCalls) {
  // It reads options and builds requests through cli/, so both refuse the same input alike.
  expect_no_violations({"python", {"archs/", "compiler/", "mapping/", "sim/"}, {}});
}

TEST(IncludeDirection, TheDriverNeverReachesUpIntoTheSweep) {
  // The sweep runner runs each point through the driver.
  expect_no_violations({"driver", {"sweep/", "reports/"}, {}});
}

TEST(IncludeDirection, TheRuleSeesAViolationWhereThereIsOne) {
  // The driver includes the kinds by design: reading it with the kinds forbidden must find them,
  // or the rules above could pass by reading nothing.
  EXPECT_FALSE(violations({"driver", {"archs/"}, {}}).empty());
}

}  // namespace
