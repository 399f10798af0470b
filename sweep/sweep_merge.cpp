#include "sweep/sweep_merge.h"

#include <set>
#include <string>

#include "base/error.h"
#include "base/path_exists.h"
#include "sweep/sqlite_db.h"
#include "sweep/stored_pareto.h"
#include "sweep/sweep_database.h"
#include "sweep/sweep_export.h"

namespace polyarch::sweep {

namespace fs = std::filesystem;

namespace {

// What must agree between databases for their rows to be comparable.
struct SweepSignature {
  std::string schema;
  std::string objectives;
  std::vector<std::string> point_columns;
  std::vector<std::string> result_columns;
  std::set<std::string> base_sha256;
};

std::string signature_meta_value(SqliteDatabase& db, const std::string& key) {
  SqliteStatement select = db.prepare("SELECT value FROM meta WHERE key = ?");
  select.bind(1, key);
  return select.step() ? select.column_text(0) : std::string();
}

SweepSignature read_signature(SqliteDatabase& db, const fs::path& path) {
  if (table_columns(db, "meta").empty() || table_columns(db, "results").empty()) {
    throw_bad_input({path.string(), 0, 0, ""}, "not a polyarch sweep database");
  }
  SweepSignature signature{signature_meta_value(db, "schema"),
                           signature_meta_value(db, "objectives"),
                           table_columns(db, "points"),
                           table_columns(db, "results"),
                           {}};
  if (signature.schema != kSweepSchema) {
    throw_bad_input({path.string(), 0, 0, ""}, "database schema '" + signature.schema +
                                                   "', this polyarch reads " + kSweepSchema);
  }
  SqliteStatement bases = db.prepare("SELECT DISTINCT base_sha256 FROM sweeps");
  while (bases.step()) signature.base_sha256.insert(bases.column_text(0));
  return signature;
}

void require_same_sweep(const SweepSignature& want, const SweepSignature& got,
                        const fs::path& path) {
  std::string what;
  if (got.point_columns != want.point_columns) what = "other parameters (points columns)";
  if (got.result_columns != want.result_columns) what = "other kept metrics (results columns)";
  if (got.base_sha256 != want.base_sha256) what = "another base arch file";
  if (got.objectives != want.objectives) what = "other objectives";
  if (!what.empty()) {
    throw_bad_input({path.string(), 0, 0, ""},
                    "comes from a different sweep than the first database: " + what);
  }
}

std::string column_list(const std::vector<std::string>& columns, std::size_t from,
                        const std::string& alias) {
  std::string list;
  for (std::size_t i = from; i < columns.size(); ++i) {
    list += ", " + alias + "." + quote_identifier(columns[i]);
  }
  return list;
}

int64_t count_rows(SqliteDatabase& db, const std::string& table) {
  SqliteStatement select = db.prepare("SELECT count(*) FROM " + table);
  select.step();
  return select.column_int(0);
}

// Copies one attached input ("src") into main; workload ids are remapped by (path, sha256).
void merge_attached(SqliteDatabase& db, const SweepSignature& signature) {
  SqliteTransaction transaction(db);
  db.execute(
      "INSERT INTO sweeps (sweep_file, sweep_sha256, base_sha256, started, polyarch_version) "
      "SELECT sweep_file, sweep_sha256, base_sha256, started, polyarch_version FROM src.sweeps "
      "ORDER BY id;"
      "INSERT OR IGNORE INTO workloads (path, sha256, name) SELECT path, sha256, name FROM "
      "src.workloads ORDER BY id;"
      "CREATE TEMP TABLE workload_map AS SELECT s.id AS src_id, m.id AS dst_id FROM "
      "src.workloads s JOIN main.workloads m ON m.path = s.path AND m.sha256 = s.sha256;"
      "INSERT OR IGNORE INTO points SELECT * FROM src.points;");
  db.execute("INSERT OR IGNORE INTO results SELECT r.point_id, m.dst_id" +
             column_list(signature.result_columns, 2, "r") +
             " FROM src.results r JOIN temp.workload_map m ON m.src_id = r.workload_id");
  // Op rows of a pair already present are identical (same sweep, deterministic simulation)
  // and are ignored by the primary key like their result row.
  db.execute(
      "INSERT OR IGNORE INTO op_results SELECT o.point_id, m.dst_id, o.op_index, o.name, "
      "o.kind, o.unit, o.total_cycles, o.compute_cycles, o.stall_cycles, o.macs, o.utilization, "
      "o.dram_bytes_read, o.dram_bytes_written, o.energy_j FROM src.op_results o JOIN "
      "temp.workload_map m ON m.src_id = o.workload_id;"
      "INSERT OR IGNORE INTO errors SELECT e.point_id, m.dst_id, e.message FROM src.errors e "
      "JOIN temp.workload_map m ON m.src_id = e.workload_id;"
      "DELETE FROM errors WHERE EXISTS (SELECT 1 FROM results r WHERE r.point_id = "
      "errors.point_id AND r.workload_id = errors.workload_id);"
      "DROP TABLE temp.workload_map;");
  transaction.commit();
}

}  // namespace

MergeSummary merge_sweep_databases(const fs::path& out, const std::vector<fs::path>& inputs) {
  if (inputs.empty()) throw_bad_input({}, "merge needs at least one input database");
  std::vector<SweepSignature> signatures;
  for (const fs::path& input : inputs) {
    if (!is_regular_file_path(input)) {
      throw_bad_input({input.string(), 0, 0, ""}, "no such sweep database");
    }
    if (path_exists(out) && fs::equivalent(input, out)) {
      throw_bad_input({input.string(), 0, 0, ""}, "an input is also the output");
    }
    SqliteDatabase db(input);
    signatures.push_back(read_signature(db, input));
    require_same_sweep(signatures.front(), signatures.back(), input);
  }
  // Everything is checked before OUT is touched, so a refused merge writes nothing.
  std::size_t first = 0;
  if (!path_exists(out)) {
    if (!out.parent_path().empty()) fs::create_directories(out.parent_path());
    SqliteDatabase source(inputs.front());
    SqliteStatement copy = source.prepare("VACUUM INTO ?");
    copy.bind(1, out.string()).step();
    first = 1;
  }
  SqliteDatabase db(out);
  db.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL");
  require_same_sweep(signatures.front(), read_signature(db, out), out);
  MergeSummary summary;
  for (std::size_t i = first; i < inputs.size(); ++i) {
    int64_t before = count_rows(db, "results");
    SqliteStatement attach = db.prepare("ATTACH DATABASE ? AS src");
    attach.bind(1, inputs[i].string()).step();
    merge_attached(db, signatures.front());
    db.execute("DETACH DATABASE src");
    SqliteDatabase input(inputs[i]);
    summary.duplicate_results +=
        count_rows(input, "results") - (count_rows(db, "results") - before);
  }
  summary.points = count_rows(db, "points");
  summary.results = count_rows(db, "results");
  summary.errors = count_rows(db, "errors");
  summary.pareto_points = rewrite_stored_pareto(db);
  export_sweep_files(out, out.parent_path().empty() ? fs::path(".") : out.parent_path());
  return summary;
}

}  // namespace polyarch::sweep
