#pragma once
// CSV building blocks shared by ops.csv (polyarch run) and the sweep exports (points.csv,
// op_results.csv): RFC 4180 quoting and numbers that read back to the same value.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace polyarch::reports {

// RFC 4180: a field holding a comma, quote, CR or LF is quoted and its quotes doubled.
std::string csv_field(const std::string& text);
// Shortest decimal that parses back to the same double (std::to_chars); "" for nullopt and for
// non-finite values, which pandas and spreadsheets read as missing.
std::string csv_number(std::optional<double> value);
// Exact overloads so a double never converts to int64_t (a standard conversion beats optional's).
std::string csv_number(double value);
std::string csv_number(int64_t value);
// One record: fields joined by commas (each already formatted), CRLF-free "\n" line end, which
// pandas, Python's csv module and spreadsheets all accept.
std::string csv_row(const std::vector<std::string>& fields);

// Parses CSV text per RFC 4180 into records of fields; throws std::runtime_error on a quote
// that is not closed. Used by the tests and by tools that read the exports back.
std::vector<std::vector<std::string>> parse_csv(const std::string& text);

}  // namespace polyarch::reports
