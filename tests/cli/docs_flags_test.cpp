// The documentation and the program's help agree on every command's options. For each command
// `polyarch --help` lists, the `--flags` its `polyarch <command> --help` prints are compared with
// the `--flags` of the command lines the README and docs/*.md write in backticks (inline code
// spans, and lines of fenced code blocks) that start with `polyarch <command>` (or a path to the
// program, or `mpirun ... polyarch <command>`). A documented flag the help does not print is an
// error in the docs or in the help; a flag the help prints that no document shows on a command
// line of that command is undocumented. A flag written for another command counts only there.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/run_polyarch.h"

namespace {

namespace fs = std::filesystem;
using polyarch::test_support::read_file;
using polyarch::test_support::run_polyarch;
using polyarch::test_support::source_path;

using FlagSet = std::set<std::string>;

bool is_flag_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; }

// Every `--[a-z][a-z0-9-]*` token of `text` not glued to a word before it (`a--b` is not a flag).
FlagSet flags_in(const std::string& text) {
  FlagSet flags;
  for (std::size_t i = 0; i + 2 < text.size(); ++i) {
    if (text[i] != '-' || text[i + 1] != '-' || text[i + 2] < 'a' || text[i + 2] > 'z') continue;
    if (i > 0) {
      const char before = text[i - 1];
      if (std::isalnum(static_cast<unsigned char>(before)) || before == '-' || before == '_') {
        continue;
      }
    }
    std::size_t end = i + 2;
    while (end < text.size() && is_flag_char(text[end])) ++end;
    std::string flag = text.substr(i, end - i);
    while (!flag.empty() && flag.back() == '-') flag.pop_back();
    flags.insert(flag);
    i = end - 1;
  }
  return flags;
}

std::vector<std::string> words_of(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// The command a documented command line runs, with the text after it; empty when the line
// does not start with the program (`polyarch`, `build/cli/polyarch`, `mpirun -n 2 polyarch`).
std::pair<std::string, std::string> command_line_of(const std::string& span) {
  const std::vector<std::string> words = words_of(span);
  std::size_t program = 0;
  if (!words.empty() && words[0] == "mpirun") {
    while (program < words.size() && words[program] != "polyarch") ++program;
  }
  if (program + 1 >= words.size()) return {};
  const std::string& first = words[program];
  if (first != "polyarch" && !first.ends_with("/polyarch")) return {};
  const std::string& command = words[program + 1];
  const std::size_t at = span.find(command, span.find(first) + first.size());
  return {command, span.substr(at + command.size())};
}

// The code a Markdown file writes: inline code spans (a span may run over line breaks within
// a paragraph) and each line of a fenced block, with `\` continuation lines joined.
std::vector<std::string> code_spans(const std::string& markdown) {
  std::vector<std::string> spans;
  std::istringstream in(markdown);
  std::string paragraph;
  bool fenced = false;
  std::string fenced_line;
  auto flush_paragraph = [&] {
    std::size_t open = paragraph.find('`');
    while (open != std::string::npos) {
      std::size_t ticks = open;
      while (ticks < paragraph.size() && paragraph[ticks] == '`') ++ticks;
      const std::string fence = paragraph.substr(open, ticks - open);
      const std::size_t close = paragraph.find(fence, ticks);
      if (close == std::string::npos) break;
      spans.push_back(paragraph.substr(ticks, close - ticks));
      open = paragraph.find('`', close + fence.size());
    }
    paragraph.clear();
  };
  for (std::string line; std::getline(in, line);) {
    const std::string trimmed = line.substr(std::min(line.find_first_not_of(' '), line.size()));
    if (trimmed.starts_with("```")) {
      flush_paragraph();
      fenced = !fenced;
      continue;
    }
    if (fenced) {
      if (!line.empty() && line.back() == '\\') {
        fenced_line += line.substr(0, line.size() - 1) + " ";
        continue;
      }
      spans.push_back(fenced_line + line);
      fenced_line.clear();
      continue;
    }
    if (trimmed.empty()) {
      flush_paragraph();
    } else {
      paragraph += line + "\n";
    }
  }
  flush_paragraph();
  return spans;
}

// The flags a command's help declares as its own: those of its usage lines (`usage: polyarch
// <command> ...`, `polyarch <command> ...` and the `[...]` lines continuing them) and of its
// option lines (indented at most two columns, starting with `-`, up to the description). Flags
// the prose mentions (another command's, or Slurm's `--array`) are not the command's.
FlagSet help_flags(const std::string& command, const std::string& help) {
  FlagSet flags;
  std::istringstream in(help);
  bool in_usage = false;
  for (std::string line; std::getline(in, line);) {
    const std::size_t indent = std::min(line.find_first_not_of(' '), line.size());
    const std::string trimmed = line.substr(indent);
    if (trimmed.starts_with("usage: polyarch " + command) ||
        trimmed.starts_with("polyarch " + command)) {
      flags.merge(flags_in(trimmed));
      in_usage = true;
      continue;
    }
    if (in_usage && indent > 2 && trimmed.starts_with("[")) {
      flags.merge(flags_in(trimmed));
      continue;
    }
    in_usage = false;
    if (indent <= 2 && trimmed.starts_with("-")) {
      flags.merge(flags_in(trimmed.substr(0, trimmed.find("  "))));
    }
  }
  return flags;
}

// The commands `polyarch --help` lists under "commands:".
std::vector<std::string> listed_commands() {
  const std::string help = run_polyarch("--help").output;
  std::vector<std::string> commands;
  std::istringstream in(help.substr(help.find("commands:")));
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line) && line.starts_with("  ")) {
    commands.push_back(words_of(line).at(0));
  }
  return commands;
}

struct DocumentedFlags {
  // command -> flag -> the files that write it on that command's command lines
  std::map<std::string, std::map<std::string, std::set<std::string>>> by_command;
};

DocumentedFlags documented_flags() {
  std::vector<fs::path> files = {source_path("README.md")};
  for (const auto& entry : fs::directory_iterator(source_path("docs"))) {
    if (entry.path().extension() == ".md") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  DocumentedFlags documented;
  const fs::path root = POLYARCH_SOURCE_DIR;
  for (const fs::path& file : files) {
    const std::string name = fs::relative(file, root).string();
    for (const std::string& span : code_spans(read_file(file))) {
      const auto [command, rest] = command_line_of(span);
      if (command.empty()) continue;
      for (const std::string& flag : flags_in(rest)) {
        documented.by_command[command][flag].insert(name);
      }
    }
  }
  return documented;
}

TEST(DocsFlags, SpansAndFlagsAreReadAsWritten) {
  const auto spans = code_spans(
      "text `polyarch run --arch A\n[--out DIR]` and `run --seed`\n\n```sh\n"
      "build/cli/polyarch diff A B \\\n    --fail-on x\n```\n`mpirun -n 2 polyarch sweep S "
      "--resume`\n");
  ASSERT_EQ(spans.size(), 4u);
  EXPECT_EQ(command_line_of(spans[0]).first, "run");
  EXPECT_EQ(flags_in(command_line_of(spans[0]).second), (FlagSet{"--arch", "--out"}));
  EXPECT_EQ(command_line_of(spans[1]).first, "");
  EXPECT_EQ(command_line_of(spans[2]).first, "diff");
  EXPECT_EQ(flags_in(command_line_of(spans[2]).second), (FlagSet{"--fail-on"}));
  EXPECT_EQ(command_line_of(spans[3]).first, "sweep");
  EXPECT_EQ(flags_in("a--b --x-y, [--z] -j --9"), (FlagSet{"--x-y", "--z"}));
  const std::string help =
      "usage: polyarch sweep S [--out DIR]\n"
      "                      [--mapping M]\n"
      "       polyarch sweep --describe NAME\n"
      "Prose naming run --functional and `polyarch merge --into`.\n"
      "  -j, --jobs N   workers; Slurm's --array=0-3\n"
      "                 --explain in a description\n"
      "  --cache-dir, --no-cache\n";
  EXPECT_EQ(help_flags("sweep", help),
            (FlagSet{"--out", "--mapping", "--describe", "--jobs", "--cache-dir", "--no-cache"}));
}

TEST(DocsFlags, EveryDocumentedFlagIsInItsCommandsHelpAndEveryHelpFlagIsDocumented) {
  const std::vector<std::string> commands = listed_commands();
  ASSERT_GE(commands.size(), 9u) << "polyarch --help lists no commands";
  const DocumentedFlags documented = documented_flags();
  for (const auto& [command, flags] : documented.by_command) {
    EXPECT_NE(std::find(commands.begin(), commands.end(), command), commands.end())
        << "the docs write `polyarch " << command << "`, which polyarch --help does not list";
  }
  for (const std::string& command : commands) {
    const auto help_run = run_polyarch(command + " --help");
    ASSERT_EQ(help_run.exit_code, 0) << command << " --help:\n" << help_run.output;
    FlagSet own_flags = help_flags(command, help_run.output);
    own_flags.erase("--help");
    const auto found = documented.by_command.find(command);
    const std::map<std::string, std::set<std::string>> none;
    const auto& in_docs = found == documented.by_command.end() ? none : found->second;
    for (const auto& [flag, files] : in_docs) {
      if (flag == "--help" || own_flags.contains(flag)) continue;
      for (const std::string& file : files) {
        ADD_FAILURE() << file << " documents `polyarch " << command << " " << flag
                      << "`, which `polyarch " << command << " --help` does not list";
      }
    }
    for (const std::string& flag : own_flags) {
      EXPECT_TRUE(in_docs.contains(flag)) << "`polyarch " << command << " --help` lists " << flag
                                          << ", which no command line `polyarch " << command
                                          << " ...` in README.md or docs/*.md shows";
    }
  }
}

}  // namespace
