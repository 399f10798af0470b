#pragma once
// A die floorplan: named rectangular blocks, read from HotSpot's `.flp` format
// (`name width height left bottom`, metres, `#` comments, blank lines, tabs or spaces).
#include <filesystem>
#include <string>
#include <vector>

namespace polyarch::sim::thermal {

// Lengths closer than this are equal: HotSpot's `eq()` tolerance (util.h DELTA), used for
// adjacency, chip borders and overlap checks, so files written with 6 decimals line up.
constexpr double kFloorplanToleranceM = 1.0e-6;

struct FloorplanBlock {
  std::string name;
  double width_m = 0.0;
  double height_m = 0.0;
  double left_m = 0.0;
  double bottom_m = 0.0;
  int line = 0;  // 1-based line in the file, for messages

  double right_m() const { return left_m + width_m; }
  double top_m() const { return bottom_m + height_m; }
  double area_m2() const { return width_m * height_m; }
};

struct Floorplan {
  std::string file;  // label for messages
  std::vector<FloorplanBlock> blocks;

  int block_count() const { return static_cast<int>(blocks.size()); }
  int index_of(const std::string& name) const;  // -1 when absent
  std::vector<std::string> names() const;
  // Bounding box of all blocks (HotSpot measures the chip this way).
  double min_x_m() const;
  double min_y_m() const;
  double width_m() const;
  double height_m() const;
  // Bounding-box area that no block covers (gaps are allowed; HotSpot conducts nothing across).
  double gap_area_m2() const;
};

// Parses `.flp` text. Rejects malformed lines, non-numbers, non-positive sizes, duplicate names,
// an empty floorplan, and overlapping blocks (naming both and the line), with file:line.
// HotSpot's optional 6th and 7th columns (per-block specific heat and resistivity, used only by
// its layered grid model) are accepted and ignored, as HotSpot's block model does; so are
// HotFloorplan's `name1 name2 wire_density` connectivity lines.
Floorplan parse_floorplan(const std::string& text, const std::string& file_label);
Floorplan load_floorplan(const std::filesystem::path& path);

// The blocks' shared edge: positive when `a` and `b` touch along an edge (within the tolerance),
// 0 otherwise (apart, or touching only at a corner). `horizontal` tells whether they sit side
// by side (shared vertical edge) rather than one above the other.
struct SharedEdge {
  double length_m = 0.0;
  bool horizontal = false;
};
SharedEdge shared_edge(const FloorplanBlock& a, const FloorplanBlock& b);

}  // namespace polyarch::sim::thermal
