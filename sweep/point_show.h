#pragma once
// `polyarch sweep show DB POINT_ID`: one point of a finished sweep, made concrete again. Writes
// the point's resolved arch file (the base with its parameter values, `base:` included) and, for
// each of the sweep's workloads, the run's report.json and report.html, simulated with the
// mapping mode the database was filled under; so a point of the dashboard can be opened, rerun
// and edited as an ordinary arch file.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace polyarch::sweep {

struct PointShowRequest {
  std::filesystem::path database;  // results.sqlite or the sweep's output directory
  std::string point_id;
  // The sweep file; by default the one the database recorded (as the sweep was given it, so
  // relative to the directory the sweep ran in).
  std::optional<std::filesystem::path> sweep_file;
  std::optional<std::filesystem::path> out_dir;  // default: <database dir>/points/<point id>
};

struct ShownWorkload {
  std::string name;
  double latency_s = 0.0;                 // the rerun's
  std::optional<double> stored_latency_s;  // what the database holds, when it kept latency_s
};

struct PointShowOutcome {
  std::filesystem::path out_dir;
  std::vector<ShownWorkload> workloads;
};

// Bad input (nothing written) for a point id the database does not have, a database that is not
// a sweep's, or a sweep file that is missing or no longer produces the point.
PointShowOutcome show_point(const PointShowRequest& request);

}  // namespace polyarch::sweep
