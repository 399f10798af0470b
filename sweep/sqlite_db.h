#pragma once
// A thin RAII layer over the SQLite C API: one connection, prepared statements with typed
// binds, and transactions that roll back unless committed. Failures are runtime errors that
// carry SQLite's message and the database path.
#include <sqlite3.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace polyarch::sweep {

using SqlValue = std::variant<std::monostate, int64_t, double, std::string>;

class SqliteStatement {
 public:
  SqliteStatement(sqlite3* db, const std::string& sql);
  ~SqliteStatement();
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  SqliteStatement& bind(int index, const SqlValue& value);  // 1-based, as in SQLite
  // Advances; true while a row is available, false when done.
  bool step();
  void reset();  // ready to bind and step again

  int64_t column_int(int index) const;  // 0-based
  double column_double(int index) const;
  std::string column_text(int index) const;
  SqlValue column_value(int index) const;
  int column_count() const;

 private:
  sqlite3* db_;
  sqlite3_stmt* statement_ = nullptr;
};

class SqliteDatabase {
 public:
  explicit SqliteDatabase(const std::filesystem::path& path);
  ~SqliteDatabase();
  SqliteDatabase(const SqliteDatabase&) = delete;
  SqliteDatabase& operator=(const SqliteDatabase&) = delete;

  void execute(const std::string& sql);  // one or more statements without results
  SqliteStatement prepare(const std::string& sql) { return SqliteStatement(db_, sql); }
  int64_t last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }

 private:
  sqlite3* db_ = nullptr;
  std::filesystem::path path_;
};

// BEGIN IMMEDIATE on construction; ROLLBACK on destruction unless commit() ran.
class SqliteTransaction {
 public:
  explicit SqliteTransaction(SqliteDatabase& db);
  ~SqliteTransaction();
  void commit();

 private:
  SqliteDatabase& db_;
  bool done_ = false;
};

// Double-quotes an identifier for SQL, doubling embedded quotes (column names are key paths).
std::string quote_identifier(const std::string& name);

// A table's column names in declaration order (empty when the table does not exist).
std::vector<std::string> table_columns(SqliteDatabase& db, const std::string& table);

}  // namespace polyarch::sweep
