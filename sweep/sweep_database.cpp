#include "sweep/sweep_database.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>

#include "sweep/stored_pareto.h"
#include "sweep/sweep_metrics.h"

namespace polyarch::sweep {

namespace {

const char* const kOpColumns =
    "point_id TEXT NOT NULL, workload_id INTEGER NOT NULL, op_index INTEGER NOT NULL, "
    "name TEXT, kind TEXT, unit TEXT, total_cycles INTEGER, compute_cycles INTEGER, "
    "stall_cycles INTEGER, macs INTEGER, utilization REAL, dram_bytes_read INTEGER, "
    "dram_bytes_written INTEGER, energy_j REAL, PRIMARY KEY (point_id, workload_id, op_index)";

// A parameter value as SQL: integers and reals stay numbers so queries can compare them.
SqlValue scalar_value(const std::string& text) {
  try {
    std::size_t used = 0;
    long long integer = std::stoll(text, &used);
    if (used == text.size()) return static_cast<int64_t>(integer);
    double real = std::stod(text, &used);
    if (used == text.size()) return real;
  } catch (const std::exception&) {
    // Not a number: stored as text.
  }
  return text;
}

SqlValue optional_value(const std::optional<double>& value) {
  return value ? SqlValue(*value) : SqlValue(std::monostate{});
}

std::string utc_now() {
  std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

}  // namespace

SweepDatabase::SweepDatabase(const std::filesystem::path& path, const SweepSpec& spec)
    : db_(path), spec_(spec) {
  // WAL lets readers open the database during a sweep. synchronous=NORMAL still survives a
  // killed process (the WAL is in the OS page cache); only power loss can drop the last
  // commits, which a resume then simply reruns.
  db_.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON");
  create_tables();
}

void SweepDatabase::create_tables() {
  SqliteTransaction transaction(db_);
  db_.execute(
      "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);"
      "CREATE TABLE IF NOT EXISTS sweeps (id INTEGER PRIMARY KEY, sweep_file TEXT, "
      "sweep_sha256 TEXT, base_sha256 TEXT, started TEXT, polyarch_version TEXT);"
      "CREATE TABLE IF NOT EXISTS workloads (id INTEGER PRIMARY KEY, path TEXT, sha256 TEXT, "
      "name TEXT, UNIQUE (path, sha256));"
      "CREATE TABLE IF NOT EXISTS errors (point_id TEXT NOT NULL, workload_id INTEGER NOT NULL, "
      "message TEXT, PRIMARY KEY (point_id, workload_id));");
  std::string points =
      "CREATE TABLE IF NOT EXISTS points (point_id TEXT PRIMARY KEY, area_mm2 REAL";
  std::vector<std::string> point_columns = {"point_id", "area_mm2"};
  for (const SweepParameter& parameter : spec_.parameters) {
    points += ", " + quote_identifier(parameter.path);
    point_columns.push_back(parameter.path);
  }
  db_.execute(points + ")");
  std::string results =
      "CREATE TABLE IF NOT EXISTS results (point_id TEXT NOT NULL, workload_id INTEGER NOT NULL";
  std::vector<std::string> result_columns = {"point_id", "workload_id"};
  for (const std::string& metric : spec_.keep) {
    results += ", " + metric + " " + metric_column_type(metric);
    result_columns.push_back(metric);
  }
  // op_count lets a reader check that every op row of a result is present.
  results += ", op_count INTEGER, wall_s REAL, PRIMARY KEY (point_id, workload_id))";
  result_columns.insert(result_columns.end(), {"op_count", "wall_s"});
  db_.execute(results);
  db_.execute(std::string("CREATE TABLE IF NOT EXISTS op_results (") + kOpColumns + ")");
  check_columns("points", point_columns);
  check_columns("results", result_columns);
  SqliteStatement schema = db_.prepare("INSERT OR IGNORE INTO meta VALUES ('schema', ?)");
  schema.bind(1, std::string(kSweepSchema)).step();
  // `polyarch merge` recomputes the Pareto front without the sweep file, so the objectives
  // travel with the database ("latency_s:min,energy_j:min"; the latest invocation's).
  std::string objectives;
  for (const Objective& objective : spec_.objectives) {
    objectives +=
        (objectives.empty() ? "" : ",") + objective.metric + (objective.minimize ? ":min" : ":max");
  }
  SqliteStatement meta = db_.prepare("INSERT OR REPLACE INTO meta VALUES ('objectives', ?)");
  meta.bind(1, objectives).step();
  SqliteStatement base = db_.prepare("SELECT DISTINCT base_sha256 FROM sweeps");
  while (base.step()) {
    if (base.column_text(0) != spec_.base_sha256) {
      throw_bad_input({spec_.file.string(), 0, 0, ""},
                      "the results database was filled from a different base arch file "
                      "(its SHA-256 changed); use another --out directory");
    }
  }
  transaction.commit();
}

void SweepDatabase::record_mapping_mode(const std::string& mode_json) {
  SqliteStatement stored = db_.prepare("SELECT value FROM meta WHERE key = 'mapping'");
  if (stored.step()) {
    if (stored.column_text(0) != mode_json) {
      throw_bad_input({spec_.file.string(), 0, 0, ""},
                      "the results database was filled with mappings decided as " +
                          stored.column_text(0) + ", this run decides them as " + mode_json +
                          "; use the same mapping options or another --out directory");
    }
    return;
  }
  SqliteStatement insert = db_.prepare("INSERT INTO meta VALUES ('mapping', ?)");
  insert.bind(1, mode_json).step();
}

void SweepDatabase::check_columns(const std::string& table,
                                  const std::vector<std::string>& expected) {
  SqliteStatement info = db_.prepare("PRAGMA table_info(" + quote_identifier(table) + ")");
  std::vector<std::string> actual;
  while (info.step()) actual.push_back(info.column_text(1));
  if (actual != expected) {
    throw_bad_input({spec_.file.string(), 0, 0, ""},
                    "the results database's '" + table +
                        "' table has other columns than this "
                        "sweep's parameters and kept metrics; use another --out directory");
  }
}

std::vector<int64_t> SweepDatabase::register_run(const std::vector<SweepWorkload>& workloads) {
  SqliteTransaction transaction(db_);
  SqliteStatement sweep = db_.prepare(
      "INSERT INTO sweeps (sweep_file, sweep_sha256, base_sha256, started, polyarch_version) "
      "VALUES (?, ?, ?, ?, ?)");
  sweep.bind(1, spec_.file.string())
      .bind(2, spec_.sha256)
      .bind(3, spec_.base_sha256)
      .bind(4, utc_now())
      .bind(5, std::string(POLYARCH_VERSION))
      .step();
  std::vector<int64_t> ids;
  SqliteStatement insert =
      db_.prepare("INSERT OR IGNORE INTO workloads (path, sha256, name) VALUES (?, ?, ?)");
  SqliteStatement select = db_.prepare("SELECT id FROM workloads WHERE path = ? AND sha256 = ?");
  for (const SweepWorkload& workload : workloads) {
    insert.reset();
    insert.bind(1, workload.path.string()).bind(2, workload.sha256).bind(3, workload.name).step();
    select.reset();
    select.bind(1, workload.path.string()).bind(2, workload.sha256).step();
    ids.push_back(select.column_int(0));
  }
  transaction.commit();
  return ids;
}

void SweepDatabase::insert_points(const std::vector<SweepPoint>& points) {
  std::string sql = "INSERT OR IGNORE INTO points VALUES (?, ?";
  for (std::size_t i = 0; i < spec_.parameters.size(); ++i) sql += ", ?";
  SqliteTransaction transaction(db_);
  SqliteStatement insert = db_.prepare(sql + ")");
  for (const SweepPoint& point : points) {
    insert.reset();
    insert.bind(1, point.id).bind(2, optional_value(point.area_mm2));
    for (std::size_t i = 0; i < point.values.size(); ++i) {
      insert.bind(static_cast<int>(i) + 3, scalar_value(point.values[i].scalar()));
    }
    insert.step();
  }
  transaction.commit();
}

std::set<std::pair<std::string, int64_t>> SweepDatabase::completed() {
  std::set<std::pair<std::string, int64_t>> done;
  SqliteStatement select = db_.prepare("SELECT point_id, workload_id FROM results");
  while (select.step()) done.insert({select.column_text(0), select.column_int(1)});
  return done;
}

void SweepDatabase::commit_result(const std::string& point_id, int64_t workload_id,
                                  const sim::RunResult& result, double wall_s) {
  SqliteTransaction transaction(db_);
  std::string sql = "INSERT INTO results VALUES (?, ?";
  for (std::size_t i = 0; i < spec_.keep.size(); ++i) sql += ", ?";
  SqliteStatement insert = db_.prepare(sql + ", ?, ?)");
  insert.bind(1, point_id).bind(2, workload_id);
  int column = 3;
  for (const std::string& metric : spec_.keep) {
    insert.bind(column++, result_metric(result, metric));
  }
  int64_t op_count = spec_.keep_ops ? static_cast<int64_t>(result.ops.size()) : 0;
  insert.bind(column, op_count).bind(column + 1, wall_s).step();
  if (spec_.keep_ops) {
    SqliteStatement op_insert =
        db_.prepare("INSERT INTO op_results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    for (std::size_t i = 0; i < result.ops.size(); ++i) {
      const sim::OpResult& op = result.ops[i];
      op_insert.reset();
      op_insert.bind(1, point_id)
          .bind(2, workload_id)
          .bind(3, static_cast<int64_t>(i))
          .bind(4, op.name)
          .bind(5, op.kind)
          .bind(6, op.unit)
          .bind(7, op.total_cycles)
          .bind(8, op.compute_cycles)
          .bind(9, op.stall_cycles)
          .bind(10, op.macs)
          .bind(11, op.utilization)
          .bind(12, op.dram_bytes_read)
          .bind(13, op.dram_bytes_written)
          .bind(14, optional_value(op.energy_j))
          .step();
    }
  }
  SqliteStatement clear = db_.prepare("DELETE FROM errors WHERE point_id = ? AND workload_id = ?");
  clear.bind(1, point_id).bind(2, workload_id).step();
  transaction.commit();
}

void SweepDatabase::commit_error(const std::string& point_id, int64_t workload_id,
                                 const std::string& message) {
  SqliteTransaction transaction(db_);
  SqliteStatement insert = db_.prepare("INSERT OR REPLACE INTO errors VALUES (?, ?, ?)");
  insert.bind(1, point_id).bind(2, workload_id).bind(3, message).step();
  transaction.commit();
}

std::vector<ObjectiveRow> SweepDatabase::objective_rows(const std::vector<std::string>& point_ids,
                                                        const std::vector<int64_t>& workload_ids) {
  std::map<std::string, std::vector<std::optional<double>>> sums;
  std::map<std::string, std::size_t> counts;
  std::string sql = "SELECT r.point_id, p.area_mm2";
  for (const Objective& objective : spec_.objectives) {
    sql += objective.metric == "area_mm2" ? ", NULL" : ", r." + objective.metric;
  }
  SqliteStatement select = db_.prepare(sql +
                                       " FROM results r JOIN points p ON p.point_id = r.point_id "
                                       "WHERE r.workload_id = ?");
  std::size_t objectives = spec_.objectives.size();
  for (int64_t workload_id : workload_ids) {
    select.reset();
    select.bind(1, workload_id);
    while (select.step()) {
      std::string id = select.column_text(0);
      auto [it, fresh] = sums.try_emplace(id, std::vector<std::optional<double>>(objectives, 0.0));
      ++counts[id];
      for (std::size_t k = 0; k < objectives; ++k) {
        int column = static_cast<int>(k) + 2;
        bool area = spec_.objectives[k].metric == "area_mm2";
        SqlValue value = select.column_value(area ? 1 : column);
        if (std::holds_alternative<std::monostate>(value)) {
          it->second[k].reset();
        } else if (it->second[k]) {
          double number = std::holds_alternative<int64_t>(value)
                              ? static_cast<double>(std::get<int64_t>(value))
                              : std::get<double>(value);
          *it->second[k] = area ? number : *it->second[k] + number;
        }
      }
    }
  }
  std::vector<ObjectiveRow> rows;
  for (const std::string& id : point_ids) {
    auto it = sums.find(id);
    if (it == sums.end() || counts[id] != workload_ids.size()) continue;
    for (std::size_t k = 0; k < objectives; ++k) {
      if (spec_.objectives[k].metric == "avg_power_w" && it->second[k]) {
        *it->second[k] /= static_cast<double>(workload_ids.size());
      }
    }
    rows.push_back({id, it->second});
  }
  return rows;
}

void SweepDatabase::write_pareto(const std::vector<ObjectiveRow>& front) {
  std::vector<std::string> metrics;
  for (const Objective& objective : spec_.objectives) metrics.push_back(objective.metric);
  std::vector<FrontRow> rows;
  for (const ObjectiveRow& row : front) rows.push_back({row.point_id, row.values});
  write_pareto_table(db_, metrics, rows);
}

}  // namespace polyarch::sweep
