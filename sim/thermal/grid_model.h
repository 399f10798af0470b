#pragma once
// HotSpot's grid model with its default layer stack (HotSpot 7.0 temperature_grid.c, no layer
// configuration file): the die, the interface material, and the centre parts of the spreader
// and the sink under the die are each a ROWS x COLS grid of cells spanning the floorplan's
// bounding box; the spreader's and sink's peripheries are the twelve package-ring nodes of the
// block model. Block power is spread over the silicon cells by area overlap; a block's
// temperature is read at its centre cells. Equations: README.md.
#include <array>
#include <span>
#include <string>
#include <vector>

#include "sim/thermal/floorplan.h"
#include "sim/thermal/package_config.h"
#include "sim/thermal/package_ring.h"

namespace polyarch::sim::thermal {

// HotSpot's grid layers, top to bottom (temperature_grid.h LAYER_SI, LAYER_INT, then the
// package layers LAYER_SP, LAYER_SINK).
enum GridLayer { kGridSilicon = 0, kGridInterface = 1, kGridSpreader = 2, kGridSink = 3 };
constexpr int kGridLayerCount = 4;

// HotSpot's default grid_rows x grid_cols.
struct GridSize {
  int rows = 64;
  int cols = 64;
};
// kMaxGridCells (package_config.h): the most cells polyarch accepts.

// Per-cell coefficients of one layer, equal in every cell (no per-block materials).
struct GridLayerCoefficients {
  double east_west_g = 0.0;    // between horizontal neighbours, W/K
  double north_south_g = 0.0;  // between vertical neighbours
  double down_g = 0.0;         // to the same cell of the next layer; the sink's to ambient
  double capacitance = 0.0;    // J/K
};

// A block's part of one cell: the fraction of the block's power that heats the cell, and the
// fraction of the cell the block covers (HotSpot's "occupancy").
struct CellShare {
  int cell = 0;
  double fraction = 0.0;
  double occupancy = 0.0;
};

// A conductance between two nodes (W/K).
struct Coupling {
  int a = 0;
  int b = 0;
  double g = 0.0;
};

struct GridNetwork {
  int rows = 0;
  int cols = 0;
  double cell_width_m = 0.0;
  double cell_height_m = 0.0;
  std::array<GridLayerCoefficients, kGridLayerCount> layers;
  // Conductance from a spreader ([0]) or sink ([1]) edge cell to its side's ring node, for the
  // west/east ([.][0]) and north/south ([.][1]) edges: half a cell in series with the cell's
  // share of the ring's lateral resistance (temperature_grid.c slope_fn_grid).
  std::array<std::array<double, 2>, 2> edge_g{};
  PackageRing ring;
  std::vector<std::string> ring_names;  // inode_k of ring node `cell_node_count() + i`

  // The whole network, every node: capacitances, each node's conductance to ambient, and the
  // conductances between nodes (each pair once).
  std::vector<double> capacitance_j_per_k;
  std::vector<double> ambient_g;
  std::vector<Coupling> couplings;

  // Per block: the silicon cells it heats, and the one to four cells whose mean HotSpot reports
  // as its temperature (temperature_grid.c xlate_temp_g2b, GRID_CENTER, the default map mode).
  std::vector<std::vector<CellShare>> block_cells;
  std::vector<std::array<int, 4>> block_probe_cells;

  int cell_count() const { return rows * cols; }
  int cell(int row, int col) const { return row * cols + col; }  // row 0 is the north edge
  // Nodes are numbered cell by cell, the four layers of a cell together, along the shorter side
  // first, which keeps the factorisation's band at 4 x min(rows, cols).
  int node(int layer, int cell) const {
    const int row = cell / cols, col = cell % cols;
    const int ordinal = cols <= rows ? row * cols + col : col * rows + row;
    return ordinal * kGridLayerCount + layer;
  }
  int cell_node_count() const { return kGridLayerCount * cell_count(); }
  int node_count() const { return cell_node_count() + ring.count; }
  int block_count() const { return static_cast<int>(block_cells.size()); }
  // Whether the blocks cover every cell completely (no gaps in the floorplan at this grid).
  bool fully_covered() const;

  // Node power of the given block powers (W), on the silicon cells.
  std::vector<double> node_power(std::span<const double> block_power_w) const;
  // A block's reported rise: the mean of its probe cells in the silicon layer (or `layer`).
  double block_rise(std::span<const double> node_rise, int block, int layer = kGridSilicon) const;
  // The grid state HotSpot starts a transient from when given block-level temperatures (its
  // -init_file, or -init_temp for every block): each cell of a layer takes the
  // occupancy-weighted sum of the blocks' kelvin in that layer (temperature_grid.c
  // xlate_vector_b2g), so a cell no block covers starts at 0 K; ring nodes take their own.
  // `block_kelvin[layer][block]`; returns every node's rise above `ambient_k`.
  std::vector<double> hotspot_initial_rise(
      const std::array<std::vector<double>, kGridLayerCount>& block_kelvin,
      std::span<const double> ring_kelvin, double ambient_k) const;
};

// G·x for every node's x.
std::vector<double> apply_conductance(const GridNetwork& network, std::span<const double> x);

// Builds the network. A floorplan that does not fit on the spreader, or a grid size outside
// 1..kMaxGridCells cells, is bad input.
GridNetwork build_grid_network(const Floorplan& floorplan, const PackageConfig& package,
                               GridSize size);

}  // namespace polyarch::sim::thermal
