#pragma once
// Files made from a sweep database for pandas, spreadsheets and browsers, written next to it:
//   points.csv      one row per (point, workload) result: point_id, the parameters (named by
//                   key path), area_mm2, workload, workload_path, the kept metrics, op_count,
//                   pareto (1 on the front, 0 off it, empty when the sweep has no objectives)
//   op_results.csv  one row per op: point_id, workload, then op_results' columns from op_index
//   dashboard.html  charts and a table of the points (reports/html/dashboard_html.h)
// Rows are sorted (point_id, workload id, op_index) and wall_s is left out, so exports of the
// same results are byte-identical however the sweep was run (-j, shards, merge).
#include <filesystem>
#include <string>
#include <vector>

#include "sweep/sqlite_db.h"

namespace polyarch::sweep {

// points.csv's header and rows as values, for the CSV and for dashboard.html.
struct ResultTable {
  std::vector<std::string> columns;
  std::vector<std::vector<SqlValue>> rows;
};
ResultTable points_table(SqliteDatabase& db);

void export_sweep_files(const std::filesystem::path& database, const std::filesystem::path& dir);

}  // namespace polyarch::sweep
