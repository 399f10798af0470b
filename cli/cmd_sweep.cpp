// `polyarch sweep S.yaml [--out DIR] [-j N] [--resume] [--shard i/N]`: a design-space sweep into
// SQLite.
#include <unistd.h>

#include <iostream>
#include <tuple>
#include <utility>

#include "base/error.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/mapping_search_options.h"
#include "sweep/sweep_runner.h"

namespace polyarch::cli {

namespace {

constexpr const char* kSweepHelp =
    R"(usage: polyarch sweep S.yaml [--out DIR] [-j N] [--resume] [--shard i/N]
                      [--mapping fixed|searched] [--search S [--objective O] [--search-budget N]]
                      [--cache-dir DIR|--no-cache]

Expands the sweep file's parameters over its base arch file (cartesian product, zip groups,
ranges, or random / Latin-hypercube sampling), drops points that fail its constraints, simulates
every (point, workload) pair in worker processes and stores the results in DIR/results.sqlite
(schema polyarch.sweep/1; see docs/sweeps.md). Each result commits atomically, so a killed
sweep loses nothing it finished: rerunning the same command skips completed pairs and retries
failed ones. Ends with the Pareto front over the sweep's objectives and writes DIR/points.csv,
DIR/op_results.csv and DIR/dashboard.html (Pareto scatter and sortable table; opens offline).

Under `mpirun -n N` (polyarch built with OpenMPI) rank 0 writes the database and hands points
out to the other ranks, each running up to -j of them at once.

options:
  --out DIR      output directory (default out/sweeps/<sweep file name>)
  -j, --jobs N   worker processes running at once (default 1)
  --resume       require DIR/results.sqlite to exist (rerunning resumes anyway)
  --shard i/N    run only every N-th point starting at point i (0 <= i < N; for job arrays,
                 e.g. Slurm's --array=0-3 with --shard $SLURM_ARRAY_TASK_ID/4) into
                 DIR/results-shard-i-of-N.sqlite; `polyarch merge` joins the shards
  --mapping, --search, --objective, --search-budget, --cache-dir, --no-cache
                 as for `polyarch run`: every point's ops run searched mappings unless
                 --mapping fixed; decisions are cached on disk by unit configuration, so points
                 sharing a unit's shape share its searches. A database keeps the mode it was
                 filled under and refuses a resume under another
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

// "i/N" with 0 <= i < N: the form Slurm's 0-based array indices give directly.
std::pair<int, int> parse_shard(const std::optional<std::string>& text) {
  if (!text) return {0, 1};
  std::size_t slash = text->find('/');
  try {
    if (slash != std::string::npos) {
      std::size_t used_index = 0;
      std::size_t used_count = 0;
      int index = std::stoi(text->substr(0, slash), &used_index);
      int count = std::stoi(text->substr(slash + 1), &used_count);
      if (used_index == slash && used_count == text->size() - slash - 1 && (*text)[0] != '-' &&
          count >= 1 && count <= 1000000 && index >= 0 && index < count) {
        return {index, count};
      }
    }
  } catch (const std::exception&) {
  }
  throw_bad_input({}, "--shard expects i/N with 0 <= i < N (e.g. 0/4), got '" + *text + "'");
}

}  // namespace

int sweep_command(const CommandArgs& args) {
  if (wants_help(args)) {
    std::cout << kSweepHelp;
    return 0;
  }
  std::vector<OptionSpec> specs = {{"out"}, {"jobs"}, {"resume", false}, {"shard"}};
  for (OptionSpec& spec : mapping_search_option_specs()) specs.push_back(std::move(spec));
  Arguments parsed(normalise_jobs_flag(args), specs);
  if (parsed.positionals().size() != 1) {
    throw_bad_input({}, "sweep needs exactly one sweep file (see --help)");
  }
  sweep::SweepRunOptions options;
  options.sweep_file = parsed.positionals().front();
  options.out_dir = parsed.value("out").value_or(
      (std::filesystem::path("out/sweeps") / options.sweep_file.stem()).string());
  options.jobs = parse_jobs(parsed.value("jobs"));
  options.resume = parsed.flag("resume");
  std::tie(options.shard_index, options.shard_count) = parse_shard(parsed.value("shard"));
  options.terminal = isatty(STDERR_FILENO) != 0;
  options.mapping_search = driver::search_policy(mapping_search_options(parsed), 0);
  sweep::SweepRunSummary summary = sweep::run_sweep(options, std::cout, std::cerr);
  return summary.jobs_failed > 0 ? 1 : 0;
}

}  // namespace polyarch::cli
