#include "sim/thermal/text_fields.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace polyarch::sim::thermal {

namespace {
bool is_separator(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
}  // namespace

std::vector<FieldLine> split_field_lines(const std::string& text) {
  std::vector<FieldLine> lines;
  std::size_t start = 0;
  for (int number = 1; start <= text.size(); ++number) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    FieldLine line{number, {}};
    std::size_t i = start;
    while (i < end) {
      while (i < end && is_separator(text[i])) ++i;
      if (i == end) break;
      const std::size_t field_start = i;
      while (i < end && !is_separator(text[i])) ++i;
      line.fields.push_back(
          {text.substr(field_start, i - field_start), static_cast<int>(field_start - start) + 1});
    }
    if (!line.fields.empty() && line.fields.front().text.front() != '#') {
      lines.push_back(std::move(line));
    }
    start = end + 1;
  }
  return lines;
}

std::string read_text_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw_bad_input({path.string(), 0, 0, ""}, "cannot open file");
  std::stringstream content;
  content << in.rdbuf();
  if (in.bad()) throw_bad_input({path.string(), 0, 0, ""}, "cannot read file");
  return content.str();
}

namespace {
bool parse_finite(const std::string& text, double& value) {
  errno = 0;
  char* stop = nullptr;
  value = std::strtod(text.c_str(), &stop);
  return errno == 0 && !text.empty() && stop == text.c_str() + text.size() && std::isfinite(value);
}
}  // namespace

bool is_number(const std::string& text) {
  double value = 0.0;
  return parse_finite(text, value);
}

double parse_number(const Field& field, const std::string& file, int line,
                    const std::string& what) {
  double value = 0.0;
  if (!parse_finite(field.text, value)) {
    throw_bad_input({file, line, field.column, ""},
                    "expected a number for " + what + ", got '" + field.text + "'");
  }
  return value;
}

}  // namespace polyarch::sim::thermal
