#include "sim/memory/dram/trace.h"

#include <charconv>
#include <fstream>
#include <sstream>
#include <string_view>

#include "base/error.h"

namespace polyarch::sim::dram {
namespace {

[[noreturn]] void bad_line(const std::string& file, int line, const std::string& message) {
  SourceLocation where;
  where.file = file;
  where.line = line;
  throw_bad_input(where, message);
}

// A whole-token integer in `base`; false when the token has anything else in it or overflows.
bool parse_integer(std::string_view token, int base, int64_t& value) {
  if (token.empty()) return false;
  const char* end = token.data() + token.size();
  const auto [stop, error] = std::from_chars(token.data(), end, value, base);
  return error == std::errc() && stop == end && value >= 0;
}

TraceRequest parse_line(const std::string& text, const std::string& file, int line) {
  std::istringstream fields(text);
  std::string address_text, kind, cycle_text, extra;
  fields >> address_text >> kind >> cycle_text;
  const std::string expected = " (expected '0x<hex address> READ|WRITE <cycle>')";
  if (cycle_text.empty() || (fields >> extra)) {
    bad_line(file, line, "cannot read the request '" + text + "'" + expected);
  }
  TraceRequest request;
  request.line = line;
  std::string_view hex = address_text;
  if (hex.starts_with("0x") || hex.starts_with("0X")) hex.remove_prefix(2);
  if (!parse_integer(hex, 16, request.address)) {
    bad_line(file, line, "'" + address_text + "' is not a hexadecimal address" + expected);
  }
  if (kind == "READ") {
    request.is_write = false;
  } else if (kind == "WRITE") {
    request.is_write = true;
  } else {
    bad_line(file, line, "unknown request kind '" + kind + "' (expected READ or WRITE)");
  }
  if (!parse_integer(cycle_text, 10, request.arrival_cycle)) {
    bad_line(file, line, "'" + cycle_text + "' is not a cycle count" + expected);
  }
  return request;
}

}  // namespace

Trace read_dramsim3_trace(std::istream& in, const std::string& file_label) {
  Trace trace;
  trace.file = file_label;
  int line = 0;
  for (std::string text; std::getline(in, text);) {
    ++line;
    if (!text.empty() && text.back() == '\r') text.pop_back();
    const size_t first = text.find_first_not_of(" \t");
    if (first == std::string::npos || text[first] == '#') continue;
    TraceRequest request = parse_line(text, file_label, line);
    if (!trace.requests.empty() && request.arrival_cycle < trace.requests.back().arrival_cycle) {
      bad_line(file_label, line,
               "arrival cycle " + std::to_string(request.arrival_cycle) +
                   " is earlier than the previous request's " +
                   std::to_string(trace.requests.back().arrival_cycle) +
                   " (a trace's cycles never go backwards)");
    }
    trace.requests.push_back(request);
  }
  return trace;
}

Trace read_dramsim3_trace_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) {
    SourceLocation where;
    where.file = path.string();
    throw_bad_input(where, "cannot open the trace file");
  }
  return read_dramsim3_trace(in, path.string());
}

}  // namespace polyarch::sim::dram
