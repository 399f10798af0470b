// Pass tests as text: every tests/compiler/passes/*.ir is a graph in the text IR whose
// `# RUN:` line names the passes to run (and any --layout, --precision or --sparsity); the IR
// printed after them is checked against the file's `CHECK` / `CHECK-NOT` lines by LLVM's
// FileCheck. The passes run with the IR verifier after each.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "compiler/ir/ir_parser.h"
#include "compiler/lower/pipeline.h"
#include "compiler/passes/layout.h"
#include "compiler/passes/registry.h"
#include "tests/support/run_polyarch.h"

namespace polyarch::passes {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> filecheck_program() {
  for (const char* candidate :
       {"/usr/lib/llvm-14/bin/FileCheck", "/usr/bin/FileCheck-14", "/usr/bin/FileCheck"}) {
    if (fs::exists(candidate)) return std::string(candidate);
  }
  return std::nullopt;
}

std::vector<fs::path> pass_test_files() {
  std::vector<fs::path> files;
  for (const auto& entry :
       fs::directory_iterator(fs::path(POLYARCH_SOURCE_DIR) / "tests/compiler/passes")) {
    if (entry.path().extension() == ".ir") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The words after "# RUN:": --passes a,b and the pipeline flags.
struct RunLine {
  std::vector<std::string> passes;
  lower::PipelineOptions options;
};

RunLine run_line(const std::string& text, const fs::path& file) {
  const std::size_t at = text.find("# RUN:");
  if (at == std::string::npos) throw std::runtime_error(file.string() + " has no # RUN: line");
  std::istringstream words(text.substr(at + 6, text.find('\n', at) - at - 6));
  RunLine run;
  std::string flag;
  std::string value;
  while (words >> flag >> value) {
    if (flag == "--passes") {
      run.passes = parse_pass_list(value, "--passes");
    } else if (flag == "--layout") {
      run.options.conv_layout = value == "nhwc" ? ir::Layout::kNhwc : ir::Layout::kNchw;
    } else if (flag == "--precision") {
      run.options.precision = parse_precision_policy(value);
    } else if (flag == "--sparsity") {
      run.options.sparsity = parse_sparsity_policy(value);
    } else {
      throw std::runtime_error(file.string() + ": unknown RUN flag " + flag);
    }
  }
  return run;
}

TEST(PassFileCheck, EveryPassHasATextTestFile) {
  std::set<std::string> tested;
  for (const fs::path& file : pass_test_files()) tested.insert(file.stem().string());
  for (const PassEntry& entry : pass_registry()) {
    EXPECT_EQ(tested.count(std::string(entry.name)), 1u)
        << "tests/compiler/passes/" << entry.name << ".ir is missing";
  }
}

TEST(PassFileCheck, EachFileMatchesItsChecks) {
  const std::optional<std::string> filecheck = filecheck_program();
  if (!filecheck) GTEST_SKIP() << "FileCheck not installed (Debian: apt-get install llvm-14-tools)";
  const std::vector<fs::path> files = pass_test_files();
  ASSERT_FALSE(files.empty());
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.string());
    const std::string text = test_support::read_file(file);
    const RunLine run = run_line(text, file);
    ir::Graph graph = ir::parse_ir(text, file.string());
    PassManager pipeline = lower::pipeline_of(run.passes, run.options);
    pipeline.verify_each(true);
    pipeline.run(graph);
    const fs::path output =
        fs::temp_directory_path() / ("polyarch_filecheck_" + file.stem().string() + ".ir");
    std::ofstream(output) << ir::print_graph(graph);
    const test_support::CommandOutput check = test_support::run_command(
        *filecheck + " " + file.string() + " --input-file=" + output.string());
    EXPECT_EQ(check.exit_code, 0) << check.output << "\n--- output ---\n" << ir::print_graph(graph);
    fs::remove(output);
  }
}

// FileCheck itself fails a check that does not hold, so a passing file is evidence.
TEST(PassFileCheck, FileCheckRejectsAFalseCheck) {
  const std::optional<std::string> filecheck = filecheck_program();
  if (!filecheck) GTEST_SKIP() << "FileCheck not installed (Debian: apt-get install llvm-14-tools)";
  const fs::path checks = fs::temp_directory_path() / "polyarch_filecheck_false.txt";
  const fs::path input = fs::temp_directory_path() / "polyarch_filecheck_input.txt";
  std::ofstream(checks) << "# CHECK-NOT: relu\n";
  std::ofstream(input) << "%a = elementwise(%x[4]) fn=relu elements=4 inputs=1\n";
  const test_support::CommandOutput check = test_support::run_command(
      *filecheck + " " + checks.string() + " --input-file=" + input.string());
  EXPECT_NE(check.exit_code, 0);
  fs::remove(checks);
  fs::remove(input);
}

}  // namespace
}  // namespace polyarch::passes
