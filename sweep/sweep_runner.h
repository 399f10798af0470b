#pragma once
// `polyarch sweep`: plans the points, skips (point, workload) pairs the database already has,
// simulates the rest in worker processes, commits each result as it arrives, and finishes with
// the Pareto front over the sweep's objectives.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "mapping/cache/unit_decisions.h"

namespace polyarch::sweep {

struct SweepRunOptions {
  std::filesystem::path sweep_file;
  std::filesystem::path out_dir;  // results.sqlite goes here
  int jobs = 1;
  bool resume = false;    // insists that the database exists; rerunning resumes either way
  bool terminal = false;  // draw a progress bar instead of plain lines
  // --shard i/N (0 <= i < N): run only the points whose plan index is i mod N, into
  // DIR/results-shard-<i>-of-<N>.sqlite, without the Pareto front and CSV exports, which
  // `polyarch merge` computes over all shards.
  int shard_index = 0;
  int shard_count = 1;
  // How each point's ops are mapped (driver/search_options.h): searched with this policy, or
  // each unit's configured mapping when null. Decisions are cached on disk by unit shape, so
  // points that share a unit's configuration share its searches.
  std::shared_ptr<const mapping::SearchPolicy> mapping_search;
};

struct SweepRunSummary {
  int64_t points = 0;    // after constraints
  int64_t rejected = 0;  // excluded by constraints
  int64_t jobs_total = 0;
  int64_t jobs_skipped = 0;  // already in the database
  int64_t jobs_failed = 0;
  double wall_s = 0.0;
  std::vector<std::string> pareto_point_ids;
};

// Progress goes to `progress`, the summary and the front to `out`. Bad sweep files throw
// bad-input errors before anything runs; a failing point is recorded and counted, not thrown.
SweepRunSummary run_sweep(const SweepRunOptions& options, std::ostream& out,
                          std::ostream& progress);

}  // namespace polyarch::sweep
