// The README's five-minute tour, run as written: every `build/cli/polyarch` command of its first
// code block (with the program under test in place of build/cli/polyarch, run from the source
// tree, its out/ directory moved into a scratch directory) exits 0, and the output the README
// shows after the block is what those commands print: each shown line of the first run's
// output (the "…" line stands for the lines left out) and each line of compare's.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "tests/support/replace_all.h"
#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

using polyarch::test_support::read_file;
using polyarch::test_support::replace_all;
using polyarch::test_support::run_command;
using polyarch::test_support::source_path;

// The code blocks (``` fenced) after `heading`, each as its lines.
std::vector<std::vector<std::string>> code_blocks_after(const std::string& markdown,
                                                        const std::string& heading) {
  std::vector<std::vector<std::string>> blocks;
  std::istringstream in(markdown.substr(markdown.find(heading)));
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("## ") && line != heading) break;
    if (line.starts_with("```")) {
      inside = !inside;
      if (inside) blocks.emplace_back();
    } else if (inside) {
      blocks.back().push_back(line);
    }
  }
  return blocks;
}

// The block's `build/cli/polyarch` commands, continuation lines joined, comments dropped.
std::vector<std::string> program_commands(const std::vector<std::string>& block) {
  std::vector<std::string> commands;
  std::string command;
  for (const std::string& line : block) {
    command += line.substr(0, line.find(" #"));
    if (!command.empty() && command.back() == '\\') {
      command.pop_back();
      continue;
    }
    if (command.starts_with("build/cli/polyarch ")) commands.push_back(command);
    command.clear();
  }
  return commands;
}

class ReadmeTourTest : public polyarch::test_support::ScratchDirTest {};

TEST_F(ReadmeTourTest, EveryTourCommandRunsAndPrintsWhatTheReadmeShows) {
  const auto blocks =
      code_blocks_after(read_file(source_path("README.md")), "## A five-minute tour");
  ASSERT_GE(blocks.size(), 3u) << "the tour's commands, then the run's and compare's output";
  const std::vector<std::string> commands = program_commands(blocks[0]);
  ASSERT_GE(commands.size(), 3u);
  const std::string out = path("out") + "/";
  std::vector<std::string> outputs;
  for (const std::string& command : commands) {
    std::string line = replace_all(command, " out/", " " + out);
    line.replace(0, std::string("build/cli/polyarch").size(), POLYARCH_CLI);
    auto result = run_command("cd '" + source_path("") + "' && " + line);
    EXPECT_EQ(result.exit_code, 0) << command << "\n" << result.output;
    outputs.push_back(result.output);
  }
  // The first output block is the first command's (a run); the second is compare's.
  std::size_t compare = 0;
  while (compare < commands.size() &&
         !commands[compare].starts_with("build/cli/polyarch compare")) {
    ++compare;
  }
  ASSERT_LT(compare, commands.size());
  for (auto [block, output] : {std::pair{1, outputs[0]}, std::pair{2, outputs[compare]}}) {
    for (const std::string& shown : blocks[block]) {
      if (shown == "…") continue;
      std::string expected = replace_all(shown, " out/", " " + out);
      EXPECT_NE(output.find(expected + "\n"), std::string::npos)
          << "README shows: " << shown << "\nthe command printed:\n"
          << output;
    }
  }
}

}  // namespace
