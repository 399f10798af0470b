#include "sweep/sqlite_db.h"

#include "base/error.h"

namespace polyarch::sweep {

namespace {

[[noreturn]] void fail(sqlite3* db, const std::string& what) {
  throw_runtime({}, "sqlite: " + what + ": " + (db != nullptr ? sqlite3_errmsg(db) : "no handle"));
}

}  // namespace

SqliteStatement::SqliteStatement(sqlite3* db, const std::string& sql) : db_(db) {
  if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement_, nullptr) != SQLITE_OK) {
    fail(db_, "preparing '" + sql + "'");
  }
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(statement_); }

SqliteStatement& SqliteStatement::bind(int index, const SqlValue& value) {
  int rc = SQLITE_OK;
  if (std::holds_alternative<std::monostate>(value)) {
    rc = sqlite3_bind_null(statement_, index);
  } else if (const int64_t* integer = std::get_if<int64_t>(&value)) {
    rc = sqlite3_bind_int64(statement_, index, *integer);
  } else if (const double* real = std::get_if<double>(&value)) {
    rc = sqlite3_bind_double(statement_, index, *real);
  } else {
    const std::string& text = std::get<std::string>(value);
    rc = sqlite3_bind_text(statement_, index, text.c_str(), static_cast<int>(text.size()),
                           SQLITE_TRANSIENT);
  }
  if (rc != SQLITE_OK) fail(db_, "binding parameter " + std::to_string(index));
  return *this;
}

bool SqliteStatement::step() {
  int rc = sqlite3_step(statement_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail(db_, std::string("executing '") + sqlite3_sql(statement_) + "'");
}

void SqliteStatement::reset() {
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
}

int64_t SqliteStatement::column_int(int index) const {
  return sqlite3_column_int64(statement_, index);
}

double SqliteStatement::column_double(int index) const {
  return sqlite3_column_double(statement_, index);
}

std::string SqliteStatement::column_text(int index) const {
  const unsigned char* text = sqlite3_column_text(statement_, index);
  return text == nullptr ? std::string() : reinterpret_cast<const char*>(text);
}

SqlValue SqliteStatement::column_value(int index) const {
  switch (sqlite3_column_type(statement_, index)) {
    case SQLITE_INTEGER:
      return column_int(index);
    case SQLITE_FLOAT:
      return column_double(index);
    case SQLITE_NULL:
      return std::monostate{};
    default:
      return column_text(index);
  }
}

int SqliteStatement::column_count() const { return sqlite3_column_count(statement_); }

SqliteDatabase::SqliteDatabase(const std::filesystem::path& path) : path_(path) {
  if (sqlite3_open(path.c_str(), &db_) != SQLITE_OK) {
    std::string message = db_ != nullptr ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw_runtime({path.string(), 0, 0, ""}, "cannot open database: " + message);
  }
  // A concurrent reader (a notebook, `sqlite3` CLI) must not make a commit fail outright.
  sqlite3_busy_timeout(db_, 10000);
}

SqliteDatabase::~SqliteDatabase() { sqlite3_close(db_); }

void SqliteDatabase::execute(const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message != nullptr ? message : "unknown error";
    sqlite3_free(message);
    throw_runtime({path_.string(), 0, 0, ""}, "sqlite: " + text + " in '" + sql + "'");
  }
}

SqliteTransaction::SqliteTransaction(SqliteDatabase& db) : db_(db) {
  db_.execute("BEGIN IMMEDIATE");
}

SqliteTransaction::~SqliteTransaction() {
  if (!done_) {
    try {
      db_.execute("ROLLBACK");
    } catch (const std::exception&) {
      // Rolling back after a failed statement can itself fail when SQLite already rolled back;
      // there is nothing left to undo then.
    }
  }
}

void SqliteTransaction::commit() {
  db_.execute("COMMIT");
  done_ = true;
}

std::string quote_identifier(const std::string& name) {
  std::string quoted = "\"";
  for (char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::vector<std::string> table_columns(SqliteDatabase& db, const std::string& table) {
  SqliteStatement info = db.prepare("PRAGMA table_info(" + quote_identifier(table) + ")");
  std::vector<std::string> columns;
  while (info.step()) columns.push_back(info.column_text(1));
  return columns;
}

}  // namespace polyarch::sweep
