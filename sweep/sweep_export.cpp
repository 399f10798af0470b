#include "sweep/sweep_export.h"

#include <string>
#include <vector>

#include "base/error.h"
#include "base/path_exists.h"
#include "reports/csv_writer.h"
#include "reports/html/dashboard_html.h"
#include "reports/output_files.h"
#include "sweep/sqlite_db.h"
#include "sweep/stored_pareto.h"

namespace polyarch::sweep {

namespace {

std::string csv_value(const SqlValue& value) {
  if (const int64_t* integer = std::get_if<int64_t>(&value)) return reports::csv_number(*integer);
  if (const double* real = std::get_if<double>(&value)) return reports::csv_number(*real);
  if (const std::string* text = std::get_if<std::string>(&value)) return reports::csv_field(*text);
  return "";
}

ResultTable query_table(SqliteDatabase& db, const std::string& sql,
                        const std::vector<std::string>& header) {
  ResultTable table{header, {}};
  SqliteStatement select = db.prepare(sql);
  while (select.step()) {
    std::vector<SqlValue> row(header.size());
    for (std::size_t i = 0; i < header.size(); ++i) {
      row[i] = select.column_value(static_cast<int>(i));
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

std::string table_csv(const ResultTable& table) {
  std::vector<std::string> fields;
  for (const std::string& name : table.columns) fields.push_back(reports::csv_field(name));
  std::string csv = reports::csv_row(fields);
  for (const std::vector<SqlValue>& row : table.rows) {
    for (std::size_t i = 0; i < row.size(); ++i) fields[i] = csv_value(row[i]);
    csv += reports::csv_row(fields);
  }
  return csv;
}

nlohmann::ordered_json json_value(const SqlValue& value) {
  if (const int64_t* integer = std::get_if<int64_t>(&value)) return *integer;
  if (const double* real = std::get_if<double>(&value)) return *real;
  if (const std::string* text = std::get_if<std::string>(&value)) return *text;
  return nullptr;
}

std::string dashboard(SqliteDatabase& db, const ResultTable& points) {
  nlohmann::ordered_json data = {{"columns", points.columns}};
  data["objectives"] = nlohmann::ordered_json::array();
  for (const StoredObjective& objective : stored_objectives(db)) {
    data["objectives"].push_back({{"metric", objective.metric}, {"minimize", objective.minimize}});
  }
  data["rows"] = nlohmann::ordered_json::array();
  for (const std::vector<SqlValue>& row : points.rows) {
    nlohmann::ordered_json values = nlohmann::ordered_json::array();
    for (const SqlValue& value : row) values.push_back(json_value(value));
    data["rows"].push_back(std::move(values));
  }
  return reports::dashboard_html(data);
}

std::string op_results_csv(SqliteDatabase& db) {
  std::vector<std::string> header = {"point_id", "workload"};
  std::string columns = "o.point_id, w.name";
  std::vector<std::string> op_columns = table_columns(db, "op_results");
  for (std::size_t i = 2; i < op_columns.size(); ++i) {  // after point_id, workload_id
    header.push_back(op_columns[i]);
    columns += ", o." + quote_identifier(op_columns[i]);
  }
  return table_csv(query_table(db,
                               "SELECT " + columns +
                                   " FROM op_results o JOIN workloads w ON w.id = o.workload_id"
                                   " ORDER BY o.point_id, o.workload_id, o.op_index",
                               header));
}

}  // namespace

ResultTable points_table(SqliteDatabase& db) {
  std::vector<std::string> header = {"point_id"};
  std::string columns = "r.point_id";
  std::vector<std::string> point_columns = table_columns(db, "points");
  for (std::size_t i = 2; i < point_columns.size(); ++i) {  // after point_id, area_mm2
    header.push_back(point_columns[i]);
    columns += ", p." + quote_identifier(point_columns[i]);
  }
  header.insert(header.end(), {"area_mm2", "workload", "workload_path"});
  columns += ", p.area_mm2, w.name, w.path";
  std::vector<std::string> result_columns = table_columns(db, "results");
  for (std::size_t i = 2; i < result_columns.size(); ++i) {  // after point_id, workload_id
    if (result_columns[i] == "wall_s") continue;             // differs run to run
    header.push_back(result_columns[i]);
    columns += ", r." + quote_identifier(result_columns[i]);
  }
  header.push_back("pareto");
  columns += table_columns(db, "pareto").empty()
                 ? ", NULL"
                 : ", EXISTS (SELECT 1 FROM pareto f WHERE f.point_id = r.point_id)";
  return query_table(db,
                     "SELECT " + columns +
                         " FROM results r JOIN points p ON p.point_id = r.point_id"
                         " JOIN workloads w ON w.id = r.workload_id"
                         " ORDER BY r.point_id, r.workload_id",
                     header);
}

void export_sweep_files(const std::filesystem::path& database, const std::filesystem::path& dir) {
  if (!path_exists(database)) {
    throw_bad_input({database.string(), 0, 0, ""}, "no such sweep database");
  }
  SqliteDatabase db(database);
  if (table_columns(db, "results").empty()) {
    throw_bad_input({database.string(), 0, 0, ""}, "not a polyarch sweep database");
  }
  const ResultTable points = points_table(db);
  reports::write_files_atomically(dir, {{"points.csv", table_csv(points)},
                               {"op_results.csv", op_results_csv(db)},
                               {"dashboard.html", dashboard(db, points)}});
}

}  // namespace polyarch::sweep
