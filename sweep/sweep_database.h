#pragma once
// The sweep results database (DIR/results.sqlite, schema "polyarch.sweep/1", WAL mode).
// Tables: meta, sweeps, points (one column per parameter, named by its key path), workloads,
// results (one row per point and workload), op_results, errors, pareto. Only the sweep's parent
// process writes; each (point, workload) commits in one transaction, so a killed sweep leaves
// either a complete result with all its op rows or nothing.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sim/result.h"
#include "sweep/expand.h"
#include "sweep/sqlite_db.h"
#include "sweep/sweep_spec.h"

namespace polyarch::sweep {

inline constexpr const char* kSweepSchema = "polyarch.sweep/1";

struct SweepWorkload {
  std::filesystem::path path;  // as the sweep file writes it
  std::string sha256;
  std::string name;
};

// One point's aggregated objective values (nullopt where a metric is unknown).
struct ObjectiveRow {
  std::string point_id;
  std::vector<std::optional<double>> values;  // in SweepSpec::objectives order
};

class SweepDatabase {
 public:
  // Opens or creates the database and its tables. An existing database must have the same
  // parameter columns, kept metrics and base arch; otherwise resuming into it would mix
  // incomparable rows, and that is a bad-input error.
  SweepDatabase(const std::filesystem::path& path, const SweepSpec& spec);

  // Stores how the points' ops are mapped (report.json's `mapping` object, as JSON text); a
  // database filled under another mode is a bad-input error, since its rows would not compare.
  void record_mapping_mode(const std::string& mode_json);

  // Records this invocation in `sweeps` and the workloads; returns the workloads' ids.
  std::vector<int64_t> register_run(const std::vector<SweepWorkload>& workloads);
  void insert_points(const std::vector<SweepPoint>& points);
  // (point id, workload id) pairs that already have a result.
  std::set<std::pair<std::string, int64_t>> completed();

  void commit_result(const std::string& point_id, int64_t workload_id, const sim::RunResult& result,
                     double wall_s);
  void commit_error(const std::string& point_id, int64_t workload_id, const std::string& message);

  // Objectives aggregated over the given workloads for points that have all of them: sums,
  // except avg_power_w (the mean) and area_mm2 (a property of the point).
  std::vector<ObjectiveRow> objective_rows(const std::vector<std::string>& point_ids,
                                           const std::vector<int64_t>& workload_ids);
  void write_pareto(const std::vector<ObjectiveRow>& front);

 private:
  void create_tables();
  void check_columns(const std::string& table, const std::vector<std::string>& expected);

  SqliteDatabase db_;
  const SweepSpec& spec_;
};

}  // namespace polyarch::sweep
