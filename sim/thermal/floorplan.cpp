#include "sim/thermal/floorplan.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "base/error.h"
#include "sim/thermal/text_fields.h"

namespace polyarch::sim::thermal {

namespace {

bool near(double a, double b) { return std::fabs(a - b) < kFloorplanToleranceM; }

std::string metres(double value) {
  std::ostringstream text;
  text << value << " m";
  return text.str();
}

FloorplanBlock parse_block(const FieldLine& line, const std::string& file) {
  const std::size_t count = line.fields.size();
  if (count != 5 && count != 7) {
    throw_bad_input({file, line.line, 1, ""},
                    "expected `name width height left bottom` (5 fields, or 7 with HotSpot's "
                    "specific heat and resistivity), got " +
                        std::to_string(count) + " field(s)");
  }
  FloorplanBlock block;
  block.name = line.fields[0].text;
  block.line = line.line;
  block.width_m =
      parse_number(line.fields[1], file, line.line, "the width of '" + block.name + "'");
  block.height_m =
      parse_number(line.fields[2], file, line.line, "the height of '" + block.name + "'");
  block.left_m = parse_number(line.fields[3], file, line.line, "the left of '" + block.name + "'");
  block.bottom_m =
      parse_number(line.fields[4], file, line.line, "the bottom of '" + block.name + "'");
  for (std::size_t i = 5; i < count; ++i) {
    parse_number(line.fields[i], file, line.line, "a material column of '" + block.name + "'");
  }
  if (block.width_m <= 0.0 || block.height_m <= 0.0) {
    throw_bad_input({file, line.line, line.fields[block.width_m <= 0.0 ? 1 : 2].column, ""},
                    "block '" + block.name + "' needs a positive width and height");
  }
  return block;
}

// HotFloorplan's `name1 name2 wire_density` lines, which HotSpot skips too.
bool is_connectivity(const FieldLine& line) {
  return line.fields.size() == 3 && !is_number(line.fields[1].text) &&
         is_number(line.fields[2].text);
}

// Two blocks overlap when their interiors intersect by more than the tolerance both ways.
void check_overlaps(const Floorplan& floorplan) {
  const auto& blocks = floorplan.blocks;
  for (std::size_t j = 1; j < blocks.size(); ++j) {
    for (std::size_t i = 0; i < j; ++i) {
      const double overlap_x = std::min(blocks[i].right_m(), blocks[j].right_m()) -
                               std::max(blocks[i].left_m, blocks[j].left_m);
      const double overlap_y = std::min(blocks[i].top_m(), blocks[j].top_m()) -
                               std::max(blocks[i].bottom_m, blocks[j].bottom_m);
      if (overlap_x >= kFloorplanToleranceM && overlap_y >= kFloorplanToleranceM) {
        throw_bad_input({floorplan.file, blocks[j].line, 1, ""},
                        "block '" + blocks[j].name + "' overlaps block '" + blocks[i].name +
                            "' (line " + std::to_string(blocks[i].line) + ") by " +
                            metres(overlap_x) + " x " + metres(overlap_y));
      }
    }
  }
}

}  // namespace

int Floorplan::index_of(const std::string& name) const {
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    if (blocks[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

std::vector<std::string> Floorplan::names() const {
  std::vector<std::string> result;
  for (const FloorplanBlock& block : blocks) result.push_back(block.name);
  return result;
}

double Floorplan::min_x_m() const {
  double result = blocks.front().left_m;
  for (const FloorplanBlock& block : blocks) result = std::min(result, block.left_m);
  return result;
}

double Floorplan::min_y_m() const {
  double result = blocks.front().bottom_m;
  for (const FloorplanBlock& block : blocks) result = std::min(result, block.bottom_m);
  return result;
}

double Floorplan::width_m() const {
  double right = blocks.front().right_m();
  for (const FloorplanBlock& block : blocks) right = std::max(right, block.right_m());
  return right - min_x_m();
}

double Floorplan::height_m() const {
  double top = blocks.front().top_m();
  for (const FloorplanBlock& block : blocks) top = std::max(top, block.top_m());
  return top - min_y_m();
}

double Floorplan::gap_area_m2() const {
  double covered = 0.0;
  for (const FloorplanBlock& block : blocks) covered += block.area_m2();
  return std::max(0.0, width_m() * height_m() - covered);
}

Floorplan parse_floorplan(const std::string& text, const std::string& file_label) {
  Floorplan floorplan;
  floorplan.file = file_label;
  std::map<std::string, int> first_line;
  for (const FieldLine& line : split_field_lines(text)) {
    if (is_connectivity(line)) continue;
    FloorplanBlock block = parse_block(line, file_label);
    if (auto [it, inserted] = first_line.emplace(block.name, block.line); !inserted) {
      throw_bad_input({file_label, block.line, 1, ""}, "duplicate block name '" + block.name +
                                                           "' (first on line " +
                                                           std::to_string(it->second) + ")");
    }
    floorplan.blocks.push_back(std::move(block));
  }
  if (floorplan.blocks.empty()) throw_bad_input({file_label, 0, 0, ""}, "floorplan has no blocks");
  check_overlaps(floorplan);
  return floorplan;
}

Floorplan load_floorplan(const std::filesystem::path& path) {
  return parse_floorplan(read_text_file(path), path.string());
}

SharedEdge shared_edge(const FloorplanBlock& a, const FloorplanBlock& b) {
  // As HotSpot's is_horiz_adj / is_vert_adj / get_shared_len (flp.c): edges that coincide within
  // the tolerance, sharing a positive length; corner-to-corner contact does not count.
  const bool side_by_side = near(a.right_m(), b.left_m) || near(b.right_m(), a.left_m);
  const bool stacked = near(a.top_m(), b.bottom_m) || near(b.top_m(), a.bottom_m);
  if (side_by_side && stacked) return {};
  if (side_by_side) {
    const double length = std::min(a.top_m(), b.top_m()) - std::max(a.bottom_m, b.bottom_m);
    if (length > 0.0) return {length, true};
  }
  if (stacked) {
    const double length = std::min(a.right_m(), b.right_m()) - std::max(a.left_m, b.left_m);
    if (length > 0.0) return {length, false};
  }
  return {};
}

}  // namespace polyarch::sim::thermal
