// `polyarch sweep S.yaml [--out DIR] [-j N] [--resume]`: a design-space sweep into SQLite.
#include <unistd.h>

#include <iostream>

#include "cli/arguments.h"
#include "cli/commands.h"
#include "compiler/support/error.h"
#include "reports/sweep/sweep_runner.h"

namespace polyarch::cli {

namespace {

constexpr const char* kSweepHelp = R"(usage: polyarch sweep S.yaml [--out DIR] [-j N] [--resume]

Expands the sweep file's parameters over its base arch file (cartesian product, zip groups,
ranges, or random / Latin-hypercube sampling), drops points that fail its constraints, simulates
every (point, workload) pair in worker processes and stores the results in DIR/results.sqlite
(schema polyarch.sweep/1; see README "Sweeps"). Each result commits atomically, so a killed
sweep loses nothing it finished: rerunning the same command skips completed pairs and retries
failed ones. Ends with the Pareto front over the sweep's objectives.

options:
  --out DIR      output directory (default out/sweeps/<sweep file name>)
  -j, --jobs N   worker processes running at once (default 1)
  --resume       require DIR/results.sqlite to exist (rerunning resumes anyway)
exit codes: 0 all points simulated, 1 some points failed (see the errors table), 2 bad input
)";

// `-j N` and `-jN` are the make-style spellings; the shared parser knows only `--name`.
CommandArgs normalise_jobs_flag(const CommandArgs& args) {
  CommandArgs normalised;
  for (const std::string& arg : args) {
    if (arg == "-j") {
      normalised.push_back("--jobs");
    } else if (arg.rfind("-j", 0) == 0 && arg.rfind("--", 0) != 0) {
      normalised.push_back("--jobs");
      normalised.push_back(arg.substr(2));
    } else {
      normalised.push_back(arg);
    }
  }
  return normalised;
}

int parse_jobs(const std::optional<std::string>& text) {
  if (!text) return 1;
  try {
    std::size_t used = 0;
    int jobs = std::stoi(*text, &used);
    if (used == text->size() && jobs >= 1 && jobs <= 1024) return jobs;
  } catch (const std::exception&) {
  }
  throw_bad_input({}, "-j expects a number of processes from 1 to 1024, got '" + *text + "'");
}

}  // namespace

int sweep_command(const CommandArgs& args) {
  if (wants_help(args)) {
    std::cout << kSweepHelp;
    return 0;
  }
  Arguments parsed(normalise_jobs_flag(args), {{"out"}, {"jobs"}, {"resume", false}});
  if (parsed.positionals().size() != 1) {
    throw_bad_input({}, "sweep needs exactly one sweep file (see --help)");
  }
  reports::SweepRunOptions options;
  options.sweep_file = parsed.positionals().front();
  options.out_dir = parsed.value("out").value_or(
      (std::filesystem::path("out/sweeps") / options.sweep_file.stem()).string());
  options.jobs = parse_jobs(parsed.value("jobs"));
  options.resume = parsed.flag("resume");
  options.terminal = isatty(STDERR_FILENO) != 0;
  reports::SweepRunSummary summary = reports::run_sweep(options, std::cout, std::cerr);
  return summary.jobs_failed > 0 ? 1 : 0;
}

}  // namespace polyarch::cli
