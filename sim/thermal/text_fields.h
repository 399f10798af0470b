#pragma once
// Whitespace-separated text files as HotSpot writes them (.flp, .ptrace): lines of fields
// separated by tabs or spaces, `#` comment lines and blank lines skipped.
#include <filesystem>
#include <string>
#include <vector>

#include "base/error.h"

namespace polyarch::sim::thermal {

struct Field {
  std::string text;
  int column = 0;  // 1-based
};

struct FieldLine {
  int line = 0;  // 1-based
  std::vector<Field> fields;
};

// The non-blank, non-comment lines of `text`, split into fields.
std::vector<FieldLine> split_field_lines(const std::string& text);

// The whole file; a missing or unreadable file is bad input naming it.
std::string read_text_file(const std::filesystem::path& path);

// Whether `text` is a finite decimal number.
bool is_number(const std::string& text);

// A finite decimal number, or bad input at `file`:line:col naming `what` and the text found.
double parse_number(const Field& field, const std::string& file, int line, const std::string& what);

}  // namespace polyarch::sim::thermal
