#pragma once
// The Pareto front of a sweep database from what the database itself holds: the objectives in
// meta ('objectives': "latency_s:min,energy_j:min") and the results. `polyarch merge` uses it,
// having no sweep file; it aggregates exactly as the sweep runner does (sums over workloads in
// workload-id order, avg_power_w averaged, area_mm2 per point) so a merged front equals an
// unsharded one.
#include <optional>
#include <string>
#include <vector>

#include "sweep/sqlite_db.h"

namespace polyarch::sweep {

struct StoredObjective {
  std::string metric;
  bool minimize = true;
};
// meta.objectives parsed; empty when the database names none.
std::vector<StoredObjective> stored_objectives(SqliteDatabase& db);

struct FrontRow {
  std::string point_id;
  std::vector<std::optional<double>> values;  // one per objective
};

// Replaces the `pareto` table: point_id, then one REAL column per objective metric.
void write_pareto_table(SqliteDatabase& db, const std::vector<std::string>& metrics,
                        const std::vector<FrontRow>& front);

// Recomputes and rewrites `pareto`; returns the front's size, or nullopt when the database
// names no objectives (the table is then left as it is).
std::optional<std::size_t> rewrite_stored_pareto(SqliteDatabase& db);

}  // namespace polyarch::sweep
