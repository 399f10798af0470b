#include "sim/thermal/power_trace.h"

#include <algorithm>
#include <cctype>

#include "base/config_tree.h"
#include "base/error.h"
#include "sim/thermal/text_fields.h"

namespace polyarch::sim::thermal {

namespace {

bool same_ignoring_case(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// The block a header name refers to: an exact match, else one ignoring case (HotSpot compares
// names with strcasecmp); -1 when none.
int find_block(const Floorplan& floorplan, const std::string& name) {
  const int exact = floorplan.index_of(name);
  if (exact >= 0) return exact;
  for (int b = 0; b < floorplan.block_count(); ++b) {
    if (same_ignoring_case(floorplan.blocks[b].name, name)) return b;
  }
  return -1;
}

// For each header column, the floorplan index of the block it names.
std::vector<int> header_columns(const FieldLine& header, const std::string& file,
                                const Floorplan& floorplan) {
  std::vector<int> columns;
  std::vector<int> seen_at(floorplan.blocks.size(), 0);
  const std::vector<std::string> names = floorplan.names();
  for (const Field& field : header.fields) {
    const int block = find_block(floorplan, field.text);
    if (block < 0) {
      std::string message =
          "unknown block '" + field.text + "' in the trace header (not in " + floorplan.file + ")";
      const std::string suggestion = nearest_spelling(field.text, names);
      if (!suggestion.empty()) message += "; did you mean '" + suggestion + "'?";
      throw_bad_input({file, header.line, field.column, ""}, message);
    }
    if (seen_at[block] != 0) {
      throw_bad_input({file, header.line, field.column, ""},
                      "block '" + field.text + "' appears twice in the trace header");
    }
    seen_at[block] = field.column;
    columns.push_back(block);
  }
  for (std::size_t block = 0; block < seen_at.size(); ++block) {
    if (seen_at[block] == 0) {
      throw_bad_input({file, header.line, 1, ""},
                      "the trace header lacks block '" + floorplan.blocks[block].name + "'");
    }
  }
  return columns;
}

}  // namespace

std::vector<double> PowerTrace::average_w() const {
  std::vector<double> mean(block_count, 0.0);
  const int samples = sample_count();
  for (int s = 0; s < samples; ++s) {
    std::span<const double> row = sample(s);
    for (int b = 0; b < block_count; ++b) mean[b] += row[b];
  }
  for (double& value : mean) value /= samples;
  return mean;
}

PowerTrace parse_power_trace(const std::string& text, const std::string& file_label,
                             const Floorplan& floorplan) {
  const std::vector<FieldLine> lines = split_field_lines(text);
  if (lines.empty()) throw_bad_input({file_label, 0, 0, ""}, "power trace is empty");
  const std::vector<int> columns = header_columns(lines.front(), file_label, floorplan);
  PowerTrace trace;
  trace.block_count = floorplan.block_count();
  trace.watts.reserve((lines.size() - 1) * columns.size());
  for (std::size_t l = 1; l < lines.size(); ++l) {
    const FieldLine& line = lines[l];
    if (line.fields.size() != columns.size()) {
      throw_bad_input({file_label, line.line, 1, ""},
                      "expected " + std::to_string(columns.size()) + " power values (one per " +
                          "header block), got " + std::to_string(line.fields.size()));
    }
    const std::size_t row = trace.watts.size();
    trace.watts.resize(row + columns.size());
    for (std::size_t c = 0; c < columns.size(); ++c) {
      trace.watts[row + columns[c]] =
          parse_number(line.fields[c], file_label, line.line,
                       "the power of '" + lines.front().fields[c].text + "'");
    }
  }
  if (trace.sample_count() == 0) {
    throw_bad_input({file_label, lines.front().line, 1, ""},
                    "power trace has a header but no samples");
  }
  return trace;
}

PowerTrace load_power_trace(const std::filesystem::path& path, const Floorplan& floorplan) {
  return parse_power_trace(read_text_file(path), path.string(), floorplan);
}

}  // namespace polyarch::sim::thermal
