#include "sweep/stored_pareto.h"

#include <algorithm>
#include <map>

#include "base/error.h"
#include "sweep/pareto.h"

namespace polyarch::sweep {

std::vector<StoredObjective> stored_objectives(SqliteDatabase& db) {
  SqliteStatement select = db.prepare("SELECT value FROM meta WHERE key = 'objectives'");
  std::vector<StoredObjective> objectives;
  if (!select.step()) return objectives;
  std::string text = select.column_text(0);
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t comma = std::min(text.find(',', start), text.size());
    std::string item = text.substr(start, comma - start);
    std::size_t colon = item.rfind(':');
    if (colon == std::string::npos)
      throw_bad_input({}, "meta.objectives: bad entry '" + item + "'");
    objectives.push_back({item.substr(0, colon), item.substr(colon + 1) != "max"});
    start = comma + 1;
  }
  return objectives;
}

namespace {

std::optional<double> number(const SqlValue& value) {
  if (const int64_t* integer = std::get_if<int64_t>(&value)) return static_cast<double>(*integer);
  if (const double* real = std::get_if<double>(&value)) return *real;
  return std::nullopt;
}

}  // namespace

void write_pareto_table(SqliteDatabase& db, const std::vector<std::string>& metrics,
                        const std::vector<FrontRow>& front) {
  SqliteTransaction transaction(db);
  db.execute("DROP TABLE IF EXISTS pareto");
  std::string create = "CREATE TABLE pareto (point_id TEXT PRIMARY KEY";
  std::string insert_sql = "INSERT INTO pareto VALUES (?";
  for (const std::string& metric : metrics) {
    create += ", " + quote_identifier(metric) + " REAL";
    insert_sql += ", ?";
  }
  db.execute(create + ")");
  SqliteStatement insert = db.prepare(insert_sql + ")");
  for (const FrontRow& row : front) {
    insert.reset();
    insert.bind(1, row.point_id);
    for (std::size_t k = 0; k < row.values.size(); ++k) {
      insert.bind(static_cast<int>(k) + 2, row.values[k] ? SqlValue(*row.values[k]) : SqlValue());
    }
    insert.step();
  }
  transaction.commit();
}

std::optional<std::size_t> rewrite_stored_pareto(SqliteDatabase& db) {
  std::vector<StoredObjective> objectives = stored_objectives(db);
  if (objectives.empty()) return std::nullopt;
  std::vector<std::string> result_columns = table_columns(db, "results");
  std::string sql = "SELECT r.point_id, p.area_mm2";
  for (const StoredObjective& objective : objectives) {
    if (objective.metric == "area_mm2") {
      sql += ", NULL";
    } else if (std::count(result_columns.begin(), result_columns.end(), objective.metric) == 0) {
      throw_bad_input({}, "objective '" + objective.metric + "' is not a results column");
    } else {
      sql += ", r." + quote_identifier(objective.metric);
    }
  }
  SqliteStatement workloads = db.prepare("SELECT count(DISTINCT workload_id) FROM results");
  workloads.step();
  const int64_t workload_count = workloads.column_int(0);
  // Rows come per point in workload-id order, so the sums add in the runner's order.
  SqliteStatement select =
      db.prepare(sql +
                 " FROM results r JOIN points p ON p.point_id = r.point_id ORDER BY r.point_id, "
                 "r.workload_id");
  std::vector<FrontRow> candidates;
  std::vector<int64_t> counts;
  while (select.step()) {
    std::string id = select.column_text(0);
    if (candidates.empty() || candidates.back().point_id != id) {
      candidates.push_back({id, std::vector<std::optional<double>>(objectives.size(), 0.0)});
      counts.push_back(0);
    }
    ++counts.back();
    for (std::size_t k = 0; k < objectives.size(); ++k) {
      bool area = objectives[k].metric == "area_mm2";
      std::optional<double> value = number(select.column_value(area ? 1 : static_cast<int>(k) + 2));
      std::optional<double>& sum = candidates.back().values[k];
      if (!value) {
        sum.reset();
      } else if (sum) {
        *sum = area ? *value : *sum + *value;
      }
    }
  }
  std::vector<FrontRow> complete;
  std::vector<std::vector<double>> costs;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    FrontRow& row = candidates[i];
    bool known = counts[i] == workload_count;
    for (std::size_t k = 0; k < objectives.size() && known; ++k) {
      known = row.values[k].has_value();
      if (known && objectives[k].metric == "avg_power_w") {
        *row.values[k] /= static_cast<double>(workload_count);
      }
    }
    if (!known) continue;
    std::vector<double> cost;
    for (std::size_t k = 0; k < objectives.size(); ++k) {
      cost.push_back(objectives[k].minimize ? *row.values[k] : -*row.values[k]);
    }
    costs.push_back(std::move(cost));
    complete.push_back(std::move(row));
  }
  std::vector<FrontRow> front;
  for (std::size_t index : pareto_front(costs)) front.push_back(complete[index]);
  std::vector<std::string> metrics;
  for (const StoredObjective& objective : objectives) metrics.push_back(objective.metric);
  write_pareto_table(db, metrics, front);
  return front.size();
}

}  // namespace polyarch::sweep
