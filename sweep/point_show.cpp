#include "sweep/point_show.h"

#include <unistd.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "base/config_yaml.h"
#include "base/error.h"
#include "base/path_exists.h"
#include "driver/run.h"
#include "driver/search_options.h"
#include "reports/html/report_html.h"
#include "reports/json_report.h"
#include "reports/output_files.h"
#include "sweep/expand.h"
#include "sweep/sqlite_db.h"

namespace polyarch::sweep {

namespace fs = std::filesystem;

namespace {

std::optional<std::string> meta_value(SqliteDatabase& db, const std::string& key) {
  SqliteStatement select = db.prepare("SELECT value FROM meta WHERE key = ?");
  select.bind(1, key);
  if (!select.step()) return std::nullopt;
  return select.column_text(0);
}

// The options that rebuild the search policy the database's results were mapped with.
driver::SearchOptions recorded_search(SqliteDatabase& db) {
  driver::SearchOptions options;
  const std::optional<std::string> text = meta_value(db, "mapping");
  if (!text) return options;
  const nlohmann::json mode = nlohmann::json::parse(*text);
  options.mapping = mode.at("mode").get<std::string>();
  if (*options.mapping == "fixed") return options;
  options.searcher = mode.at("searcher").get<std::string>();
  options.objective = mode.at("objective").get<std::string>();
  if (mode.contains("budget")) options.budget = std::to_string(mode.at("budget").get<int64_t>());
  options.no_cache = !mode.value("cache", true);
  return options;
}

std::string recorded_sweep_file(SqliteDatabase& db, const std::string& label) {
  SqliteStatement select = db.prepare("SELECT sweep_file FROM sweeps ORDER BY id DESC LIMIT 1");
  if (!select.step()) throw_bad_input({label, 0, 0, ""}, "the database records no sweep file");
  return select.column_text(0);
}

// The latency the sweep stored for the point on the workload the sweep file lists as
// `workload_entry`, when it kept latency_s.
std::optional<double> stored_latency(SqliteDatabase& db, const std::string& point_id,
                                     const std::string& workload_entry) {
  const std::vector<std::string> columns = table_columns(db, "results");
  if (std::find(columns.begin(), columns.end(), "latency_s") == columns.end()) return std::nullopt;
  SqliteStatement select = db.prepare(
      "SELECT r.latency_s FROM results r JOIN workloads w ON w.id = r.workload_id "
      "WHERE r.point_id = ? AND w.path = ?");
  select.bind(1, point_id).bind(2, workload_entry);
  if (!select.step()) return std::nullopt;
  const SqlValue value = select.column_value(0);
  if (const double* latency = std::get_if<double>(&value)) return *latency;
  return std::nullopt;
}

void require_point(SqliteDatabase& db, const std::string& label, const std::string& point_id) {
  SqliteStatement select = db.prepare("SELECT point_id FROM points ORDER BY point_id");
  std::vector<std::string> ids;
  while (select.step()) {
    ids.push_back(select.column_text(0));
    if (ids.back() == point_id) return;
  }
  std::string examples;
  for (std::size_t i = 0; i < ids.size() && i < 3; ++i) {
    examples.append(examples.empty() ? "" : ", ").append(ids[i]);
  }
  throw_bad_input({label, 0, 0, ""}, "no point '" + point_id + "' in this sweep (" +
                                         std::to_string(ids.size()) + " points, e.g. " + examples +
                                         "; points.csv lists them)");
}

}  // namespace

PointShowOutcome show_point(const PointShowRequest& request) {
  std::error_code error;
  const fs::path database = fs::is_directory(request.database, error)
                                ? request.database / "results.sqlite"
                                : request.database;
  const std::string label = database.string();
  if (!path_exists(database)) throw_bad_input({label, 0, 0, ""}, "no such sweep database");
  SqliteDatabase db(database);
  if (table_columns(db, "points").empty()) {
    throw_bad_input({label, 0, 0, ""}, "not a polyarch sweep database (no points table)");
  }
  require_point(db, label, request.point_id);
  const fs::path sweep_file = request.sweep_file.value_or(recorded_sweep_file(db, label));
  if (!path_exists(sweep_file)) {
    throw_bad_input({sweep_file.string(), 0, 0, ""},
                    "the sweep file the database records is not here (run from the directory "
                    "the sweep ran in, or pass --sweep S.yaml)");
  }
  const SweepSpec spec = load_sweep_spec(sweep_file);
  const std::vector<SweepPoint> points = expand_points(spec);
  const auto point = std::find_if(points.begin(), points.end(), [&](const SweepPoint& candidate) {
    return candidate.id == request.point_id;
  });
  if (point == points.end()) {
    throw_bad_input({sweep_file.string(), 0, 0, ""}, "this sweep file no longer produces point '" +
                                                         request.point_id +
                                                         "' (it changed since the sweep ran)");
  }
  const std::string arch_yaml = config_to_yaml(point_arch_document(spec, *point));

  PointShowOutcome outcome;
  outcome.out_dir = request.out_dir.value_or(database.parent_path() / "points" / request.point_id);
  // The runs read the arch from a file, as `polyarch run` does; a private scratch copy keeps
  // the output directory untouched until every run succeeded.
  const fs::path scratch =
      fs::temp_directory_path() / ("polyarch-show-" + std::to_string(getpid()));
  reports::write_files_atomically(scratch, {{"arch.yaml", arch_yaml}});
  driver::RunRequest run;
  run.arch_path = scratch / "arch.yaml";
  run.mapping_search = driver::search_policy(recorded_search(db), 0);
  std::vector<std::pair<fs::path, std::vector<reports::NamedContent>>> files = {
      {outcome.out_dir, {{"arch.yaml", arch_yaml}}}};
  try {
    for (std::size_t i = 0; i < spec.workloads.size(); ++i) {
      run.workload_path = spec.workloads[i];
      const sim::RunResult result = driver::run(run);
      const nlohmann::ordered_json report = reports::report_json(result);
      const std::string name = result.provenance.workload_name;
      outcome.workloads.push_back({name, result.summary.latency_s,
                                   stored_latency(db, request.point_id, spec.workload_entries[i])});
      files.push_back({outcome.out_dir / name,
                       {{"report.json", report.dump(2) + "\n"},
                        {"report.html", reports::report_html(report)}}});
    }
  } catch (...) {
    fs::remove_all(scratch, error);
    throw;
  }
  fs::remove_all(scratch, error);
  for (const auto& [directory, contents] : files) {
    reports::write_files_atomically(directory, contents);
  }
  return outcome;
}

}  // namespace polyarch::sweep
