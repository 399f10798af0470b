#include "sim/thermal/grid_model.h"

#include <algorithm>
#include <cmath>

#include "base/error.h"

namespace polyarch::sim::thermal {

namespace {

// HotSpot's util.c tolerant_ceil/floor: values within 1e-6 of an integer count as that integer.
constexpr double kIndexTolerance = 1.0e-6;
int tolerant_ceil(double value) {
  const double nearest = std::floor(value + 0.5);
  return std::fabs(value - nearest) < kIndexTolerance ? static_cast<int>(nearest)
                                                      : static_cast<int>(std::ceil(value));
}
int tolerant_floor(double value) {
  const double nearest = std::floor(value + 0.5);
  return std::fabs(value - nearest) < kIndexTolerance ? static_cast<int>(nearest)
                                                      : static_cast<int>(std::floor(value));
}
// An overlap within the tolerance of none or of the whole cell is that (set_bgmap).
double snapped(double overlap, double cell) {
  if (std::fabs(overlap / cell) < kIndexTolerance) return 0.0;
  if (std::fabs(overlap / cell - 1.0) < kIndexTolerance) return cell;
  return overlap;
}

class GridAssembly : public NetworkSink {
 public:
  explicit GridAssembly(GridNetwork& network) : network_(network) {
    network_.capacitance_j_per_k.assign(network_.node_count(), 0.0);
    network_.ambient_g.assign(network_.node_count(), 0.0);
    network_.ring_names.assign(network_.ring.count, "");
  }
  void connect(int a, int b, double conductance) override {
    if (a >= 0 && b >= 0 && conductance > 0.0) network_.couplings.push_back({a, b, conductance});
  }
  void to_ambient(int node, double conductance) override {
    if (node >= 0) network_.ambient_g[node] += conductance;
  }
  void set_node(int node, std::string name, double capacitance) override {
    if (node < 0) return;
    network_.capacitance_j_per_k[node] = capacitance;
    network_.ring_names[node - network_.cell_node_count()] = std::move(name);
  }

  // Lateral and vertical conductances and capacitances of every cell (temperature_grid.c
  // populate_R_model_grid, populate_C_model_grid; find_res without per-block materials).
  void add_cells() {
    const GridNetwork& n = network_;
    for (int row = 0; row < n.rows; ++row) {
      for (int col = 0; col < n.cols; ++col) {
        const int here = n.cell(row, col);
        for (int layer = 0; layer < kGridLayerCount; ++layer) {
          const GridLayerCoefficients& c = n.layers[layer];
          network_.capacitance_j_per_k[n.node(layer, here)] = c.capacitance;
          if (col + 1 < n.cols) {
            connect(n.node(layer, here), n.node(layer, n.cell(row, col + 1)), c.east_west_g);
          }
          if (row + 1 < n.rows) {
            connect(n.node(layer, here), n.node(layer, n.cell(row + 1, col)), c.north_south_g);
          }
          if (layer + 1 < kGridLayerCount) {
            connect(n.node(layer, here), n.node(layer + 1, here), c.down_g);
          } else {
            to_ambient(n.node(layer, here), c.down_g);
          }
        }
      }
    }
  }

  // Spreader edge cells to the spreader periphery, sink edge cells to the sink's inner
  // periphery, on each side.
  void add_edges() {
    const GridNetwork& n = network_;
    for (int package_layer = 0; package_layer < 2; ++package_layer) {
      const int layer = package_layer == 0 ? kGridSpreader : kGridSink;
      const auto& ring_nodes = package_layer == 0 ? n.ring.spreader : n.ring.sink_inner;
      for (int side = 0; side < kSideCount; ++side) {
        const double g = n.edge_g[package_layer][is_x_side(side) ? 0 : 1];
        const int length = is_x_side(side) ? n.rows : n.cols;
        for (int k = 0; k < length; ++k) {
          const int row = side == kNorth ? 0 : side == kSouth ? n.rows - 1 : k;
          const int col = side == kWest ? 0 : side == kEast ? n.cols - 1 : k;
          connect(n.node(layer, n.cell(row, col)), ring_nodes[side], g);
        }
      }
    }
  }

 private:
  GridNetwork& network_;
};

void set_layers(GridNetwork& n, const PackageConfig& p) {
  const double cw = n.cell_width_m, ch = n.cell_height_m, area = cw * ch;
  const std::array<const MaterialLayer*, kGridLayerCount> materials = {&p.die, &p.tim, &p.spreader,
                                                                       &p.sink};
  for (int layer = 0; layer < kGridLayerCount; ++layer) {
    const MaterialLayer& m = *materials[layer];
    GridLayerCoefficients& c = n.layers[layer];
    // HotSpot 7's find_res joins north/south neighbours through rx = R(k, cw, ch·t) and
    // east/west ones through ry = R(k, ch, cw·t): the reverse of the geometry for cells that are
    // not square. polyarch follows HotSpot so that its grid temperatures match (README.md).
    c.east_west_g = 1.0 / slab_r(m.conductivity, ch, cw * m.thickness_m);
    c.north_south_g = 1.0 / slab_r(m.conductivity, cw, ch * m.thickness_m);
    c.down_g = 1.0 / slab_r(m.conductivity, m.thickness_m, area);
    c.capacitance = slab_c(m, area);
  }
  n.layers[kGridSink].down_g = sink_to_ambient_g(p, area);
  n.layers[kGridSink].capacitance = sink_c(p, area);
}

// Which cells each block covers and by how much (temperature_grid.c set_bgmap), and its centre
// cells (xlate_temp_g2b). Rows count from the top edge.
void map_blocks(GridNetwork& n, const Floorplan& floorplan) {
  const double cw = n.cell_width_m, ch = n.cell_height_m;
  const double x0 = floorplan.min_x_m(), y0 = floorplan.min_y_m();
  for (const FloorplanBlock& block : floorplan.blocks) {
    const double left = block.left_m - x0, right = left + block.width_m;
    const double bottom = block.bottom_m - y0, top = bottom + block.height_m;
    const int i1 = n.rows - tolerant_ceil(top / ch), i2 = n.rows - tolerant_floor(bottom / ch);
    const int j1 = tolerant_floor(left / cw), j2 = tolerant_ceil(right / cw);
    if (i1 < 0 || j1 < 0 || i2 > n.rows || j2 > n.cols || i1 >= i2 || j1 >= j2) {
      throw_bad_input({floorplan.file, block.line, 0, ""},
                      "block '" + block.name + "' does not map onto the " + std::to_string(n.rows) +
                          "x" + std::to_string(n.cols) + " grid");
    }
    std::vector<CellShare> shares;
    for (int i = i1; i < i2; ++i) {
      for (int j = j1; j < j2; ++j) {
        const double cell_top = (n.rows - i) * ch, cell_bottom = (n.rows - i - 1) * ch;
        const double overlap_h =
            snapped(std::min(top, cell_top) - std::max(bottom, cell_bottom), ch);
        const double overlap_w =
            snapped(std::min(right, (j + 1) * cw) - std::max(left, j * cw), cw);
        if (overlap_h > 0.0 && overlap_w > 0.0) {
          shares.push_back({n.cell(i, j), overlap_h * overlap_w / block.area_m2(),
                            overlap_h * overlap_w / (cw * ch)});
        }
      }
    }
    n.block_cells.push_back(std::move(shares));
    // The centre cell, or the two or four around the centre of an even extent.
    const int ci1 = (i1 + i2) / 2, cj1 = (j1 + j2) / 2;
    const int ci2 = ci1 - ((i2 - i1) % 2 == 0 ? 1 : 0), cj2 = cj1 - ((j2 - j1) % 2 == 0 ? 1 : 0);
    n.block_probe_cells.push_back(
        {n.cell(ci1, cj1), n.cell(ci2, cj1), n.cell(ci1, cj2), n.cell(ci2, cj2)});
  }
}

}  // namespace

std::vector<double> GridNetwork::node_power(std::span<const double> block_power_w) const {
  std::vector<double> power(node_count(), 0.0);
  for (int b = 0; b < block_count(); ++b) {
    for (const CellShare& share : block_cells[b]) {
      power[node(kGridSilicon, share.cell)] += share.fraction * block_power_w[b];
    }
  }
  return power;
}

bool GridNetwork::fully_covered() const {
  std::vector<double> covered(cell_count(), 0.0);
  for (const std::vector<CellShare>& shares : block_cells) {
    for (const CellShare& share : shares) covered[share.cell] += share.occupancy;
  }
  return std::all_of(covered.begin(), covered.end(),
                     [](double occupancy) { return occupancy > 1.0 - 1e-9; });
}

double GridNetwork::block_rise(std::span<const double> node_rise, int block, int layer) const {
  double sum = 0.0;
  for (int cell : block_probe_cells[block]) sum += node_rise[node(layer, cell)];
  return sum / 4.0;
}

std::vector<double> GridNetwork::hotspot_initial_rise(
    const std::array<std::vector<double>, kGridLayerCount>& block_kelvin,
    std::span<const double> ring_kelvin, double ambient_k) const {
  std::vector<double> rise(node_count(), -ambient_k);
  for (int b = 0; b < block_count(); ++b) {
    for (const CellShare& share : block_cells[b]) {
      for (int layer = 0; layer < kGridLayerCount; ++layer) {
        rise[node(layer, share.cell)] += share.occupancy * block_kelvin[layer][b];
      }
    }
  }
  for (int x = 0; x < ring.count; ++x) rise[cell_node_count() + x] = ring_kelvin[x] - ambient_k;
  return rise;
}

std::vector<double> apply_conductance(const GridNetwork& network, std::span<const double> x) {
  std::vector<double> out(network.node_count());
  for (int i = 0; i < network.node_count(); ++i) out[i] = network.ambient_g[i] * x[i];
  for (const Coupling& c : network.couplings) {
    const double flow = c.g * (x[c.a] - x[c.b]);
    out[c.a] += flow;
    out[c.b] -= flow;
  }
  return out;
}

GridNetwork build_grid_network(const Floorplan& floorplan, const PackageConfig& package,
                               GridSize size) {
  if (size.rows < 1 || size.cols < 1 || size.rows > kMaxGridCells / size.cols) {
    throw_bad_input({}, "the thermal grid needs 1 to " + std::to_string(kMaxGridCells) +
                            " cells, got " + std::to_string(size.rows) + "x" +
                            std::to_string(size.cols));
  }
  check_fits_spreader(floorplan, package);
  GridNetwork n;
  n.rows = size.rows;
  n.cols = size.cols;
  n.cell_width_m = floorplan.width_m() / n.cols;
  n.cell_height_m = floorplan.height_m() / n.rows;
  set_layers(n, package);
  const PackageGeometry geometry(floorplan.width_m(), floorplan.height_m(), package);
  n.ring = PackageRing(n.cell_node_count(), geometry);
  // An edge cell reaches its ring node through half a cell and `cells along the edge` times the
  // ring's lateral resistance (the ring's resistance is shared by the edge's cells in parallel).
  for (int package_layer = 0; package_layer < 2; ++package_layer) {
    const auto& r_ring =
        package_layer == 0 ? geometry.r_spreader_lateral : geometry.r_sink_inner_lateral;
    // Half a cell across the flow: rx/2 to the west and east, ry/2 to the north and south.
    const MaterialLayer& m = package_layer == 0 ? package.spreader : package.sink;
    const double rx = slab_r(m.conductivity, n.cell_width_m, n.cell_height_m * m.thickness_m);
    const double ry = slab_r(m.conductivity, n.cell_height_m, n.cell_width_m * m.thickness_m);
    n.edge_g[package_layer][0] = 1.0 / (rx / 2.0 + n.rows * r_ring[0]);
    n.edge_g[package_layer][1] = 1.0 / (ry / 2.0 + n.cols * r_ring[1]);
  }
  GridAssembly assembly(n);
  assembly.add_cells();
  assembly.add_edges();
  add_package_ring(package, geometry, n.ring, assembly);
  map_blocks(n, floorplan);
  return n;
}

}  // namespace polyarch::sim::thermal
