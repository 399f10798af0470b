// `polyarch sweep S.yaml [--out DIR] [-j N] [--resume] [--shard i/N]`: a design-space sweep into
// SQLite.
#include <unistd.h>

#include <iostream>

#include "base/error.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "cli/sweep_request.h"
#include "sweep/sweep_runner.h"

namespace polyarch::cli {

namespace {

constexpr const char* kSweepHelp =
    R"(usage: polyarch sweep S.yaml [--out DIR] [-j N] [--resume] [--shard i/N]
                      [--mapping fixed|searched] [--search S [--objective O] [--search-budget N]]
                      [--cache-dir DIR|--no-cache]
       polyarch sweep show DB POINT_ID [--out DIR] [--sweep S.yaml]

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

sweep show: one point of a finished sweep (DB is its results.sqlite or output directory,
POINT_ID a point_id of points.csv or the dashboard) made concrete again: writes the point's
resolved arch file DIR/arch.yaml (the base arch with the point's parameter values, `base:`
included) and, per workload, DIR/<workload>/report.json and report.html, simulated with the
mapping mode the database was filled under; prints each run's latency beside the one the sweep
stored. DIR defaults to <DB's directory>/points/POINT_ID.
  --sweep S.yaml the sweep file, when it is not where the database recorded it (the path the
                 sweep was given, relative to the directory it ran in)
)";

}  // namespace

int sweep_command(const CommandArgs& args) {
  if (wants_help(args)) {
    std::cout << kSweepHelp;
    return 0;
  }
  if (!args.empty() && args.front() == "show") {
    return sweep_show_command(CommandArgs(args.begin() + 1, args.end()));
  }
  Arguments parsed(normalise_jobs_flag(args), sweep_option_specs());
  sweep::SweepRunOptions options = sweep_run_options(parsed);
  options.terminal = isatty(STDERR_FILENO) != 0;
  sweep::SweepRunSummary summary = sweep::run_sweep(options, std::cout, std::cerr);
  return summary.jobs_failed > 0 ? 1 : 0;
}

}  // namespace polyarch::cli
