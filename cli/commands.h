#pragma once
// One function per subcommand; each returns the process exit code. Errors are thrown as
// polyarch::Error and turned into exit codes by main.
#include <string>
#include <vector>

namespace polyarch::cli {

using CommandArgs = std::vector<std::string>;

int run_command(const CommandArgs& args);
int validate_command(const CommandArgs& args);
int compare_command(const CommandArgs& args);
int compile_command(const CommandArgs& args);
int sweep_command(const CommandArgs& args);
int sweep_show_command(const CommandArgs& args);  // `sweep show`, dispatched by sweep_command
int merge_command(const CommandArgs& args);
int dram_command(const CommandArgs& args);

bool wants_help(const CommandArgs& args);

}  // namespace polyarch::cli
