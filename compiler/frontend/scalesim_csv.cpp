#include "compiler/frontend/scalesim_csv.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <fstream>
#include <sstream>

#include "base/path_exists.h"
#include "compiler/frontend/layer_graph.h"

namespace polyarch::frontend {

namespace {

struct Field {
  std::string text;  // stripped
  int column = 0;    // 1-based character column where the raw field starts
};

struct Row {
  int line = 0;
  std::vector<Field> fields;
};

const std::vector<std::string> kConvColumns = {"Layer name",    "IFMAP Height", "IFMAP Width",
                                               "Filter Height", "Filter Width", "Channels",
                                               "Num Filter",    "Strides",      "Stride Width"};
const std::vector<std::string> kGemmColumns = {"Layer", "M", "N", "K"};

std::string strip(const std::string& text) {
  const auto is_space = [](unsigned char c) { return std::isspace(c) != 0; };
  auto begin = std::find_if_not(text.begin(), text.end(), is_space);
  auto end = std::find_if_not(text.rbegin(), std::string::const_reverse_iterator(begin), is_space);
  return std::string(begin, end.base());
}

std::vector<Field> split_fields(const std::string& line) {
  std::vector<Field> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    const std::size_t stop = comma == std::string::npos ? line.size() : comma;
    fields.push_back({strip(line.substr(start, stop - start)), static_cast<int>(start) + 1});
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  // SCALE-Sim does row.split(',')[:-1]: the (empty) field after the trailing comma goes.
  if (fields.size() > 1 && fields.back().text.empty()) fields.pop_back();
  return fields;
}

std::vector<Row> split_rows(const std::string& text) {
  std::vector<Row> rows;
  std::istringstream stream(text);
  std::string line;
  int line_number = 0;
  while (std::getline(stream, line)) {
    ++line_number;
    if (line_number == 1 && line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);  // BOM
    if (strip(line).empty()) continue;
    rows.push_back({line_number, split_fields(line)});
  }
  return rows;
}

bool is_gemm_header(const Row& header) {
  if (header.fields.size() < kGemmColumns.size()) return false;
  for (std::size_t i = 0; i < kGemmColumns.size(); ++i) {
    std::string text = header.fields[i].text;
    std::transform(text.begin(), text.end(), text.begin(), ::tolower);
    std::string expected = kGemmColumns[i];
    std::transform(expected.begin(), expected.end(), expected.begin(), ::tolower);
    if (text != expected) return false;
  }
  return true;
}

class RowReader {
 public:
  RowReader(const std::string& file, const Row& row, const std::vector<std::string>& columns)
      : file_(file), row_(row), columns_(columns) {}

  SourceLocation where(std::size_t index) const {
    const int column = index < row_.fields.size() ? row_.fields[index].column : 0;
    return {file_, row_.line, column, columns_[index]};
  }

  void require_fields(std::size_t count) const {
    if (row_.fields.size() < count) {
      throw_bad_input(where(row_.fields.size()), "row has " + std::to_string(row_.fields.size()) +
                                                     " fields, expected " + std::to_string(count) +
                                                     " (missing '" + columns_[row_.fields.size()] +
                                                     "')");
    }
  }

  bool present(std::size_t index) const {
    return index < row_.fields.size() && !row_.fields[index].text.empty();
  }

  const std::string& name() const {
    if (row_.fields[0].text.empty()) throw_bad_input(where(0), "layer name is empty");
    return row_.fields[0].text;
  }

  // Python's int() as SCALE-Sim applies it, then required to be a positive size.
  int64_t positive(std::size_t index) const {
    std::string text = row_.fields[index].text;
    if (!text.empty() && text.front() == '+') text.erase(0, 1);
    int64_t value = 0;
    auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || stop != text.data() + text.size()) {
      throw_bad_input(where(index), "expected an integer, got '" + row_.fields[index].text + "'");
    }
    if (value <= 0) {
      throw_bad_input(where(index),
                      "'" + columns_[index] + "' must be positive, got " + std::to_string(value));
    }
    return value;
  }

 private:
  const std::string& file_;
  const Row& row_;
  const std::vector<std::string>& columns_;
};

ir::Op read_gemm_row(const std::string& file, const Row& row) {
  RowReader reader(file, row, kGemmColumns);
  reader.require_fields(4);
  ir::GemmAttrs gemm;
  gemm.m = reader.positive(1);
  gemm.n = reader.positive(2);
  gemm.k = reader.positive(3);
  return {reader.name(), gemm, std::nullopt, {file, row.line, 0, reader.name()}};
}

// Smallest symmetric zero padding p with floor((size + 2p - filter) / stride) equal to
// ceil((size - filter) / stride): the ceil needs `missing` more rows, and 2p stays below
// missing + stride so the floor does not overshoot.
int64_t ceil_padding(int64_t size, int64_t filter, int64_t stride) {
  const int64_t missing = (stride - (size - filter) % stride) % stride;
  return (missing + 1) / 2;
}

ir::Op read_conv_row(const std::string& file, const Row& row) {
  RowReader reader(file, row, kConvColumns);
  reader.require_fields(8);
  ir::Conv2dAttrs conv;
  conv.h = reader.positive(1);
  conv.w = reader.positive(2);
  conv.r = reader.positive(3);
  conv.s = reader.positive(4);
  const int64_t channels = reader.positive(5);
  const int64_t filters = reader.positive(6);
  conv.stride_h = reader.positive(7);
  conv.stride_w = reader.present(8) ? reader.positive(8) : conv.stride_h;
  if (conv.r > conv.h) {
    throw_bad_input(reader.where(3), "filter height " + std::to_string(conv.r) +
                                         " is larger than the IFMAP height " +
                                         std::to_string(conv.h));
  }
  if (conv.s > conv.w) {
    throw_bad_input(reader.where(4), "filter width " + std::to_string(conv.s) +
                                         " is larger than the IFMAP width " +
                                         std::to_string(conv.w));
  }
  // SCALE-Sim sizes the output as ceil((ifmap - filter + stride) / stride); the IR's floor
  // formula agrees once the input gets the few zero rows/columns that ceil implies.
  conv.pad_h = ceil_padding(conv.h, conv.r, conv.stride_h);
  conv.pad_w = ceil_padding(conv.w, conv.s, conv.stride_w);
  conv.c = channels;
  conv.k = filters;
  if (reader.name().find("DP") != std::string::npos) {
    // SCALE-Sim splits a depthwise layer into `channels` single-channel convolutions with
    // `filters` filters each: exactly a grouped convolution with one channel per group.
    conv.groups = channels;
    if (__builtin_mul_overflow(channels, filters, &conv.k)) {
      throw_bad_input(reader.where(6), "64-bit overflow computing the depthwise filter count " +
                                           std::to_string(channels) + " x " +
                                           std::to_string(filters));
    }
  }
  return {reader.name(), conv, std::nullopt, {file, row.line, 0, reader.name()}};
}

}  // namespace

ir::Graph parse_scalesim_csv(const std::string& text, const std::string& file_label,
                             const std::string& graph_name) {
  const std::vector<Row> rows = split_rows(text);
  if (rows.empty()) throw_bad_input({file_label, 0, 0, ""}, "the topology file is empty");
  const bool gemm_format = is_gemm_header(rows.front());
  if (rows.size() == 1) {
    throw_bad_input({file_label, rows.front().line, 0, ""}, "the topology has no layers");
  }
  ir::Graph graph(graph_name);
  for (std::size_t i = 1; i < rows.size(); ++i) {
    add_standalone_layer(graph, gemm_format ? read_gemm_row(file_label, rows[i])
                                            : read_conv_row(file_label, rows[i]));
  }
  ir::infer_shapes(graph);
  return graph;
}

ir::Graph load_scalesim_csv(const std::filesystem::path& path) {
  const SourceLocation where{path.string(), 0, 0, ""};
  if (!is_regular_file_path(path)) throw_bad_input(where, "file not found");
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) throw_bad_input(where, "cannot open file");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_scalesim_csv(text.str(), path.string(), path.stem().string());
}

}  // namespace polyarch::frontend
