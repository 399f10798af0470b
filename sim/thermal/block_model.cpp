#include "sim/thermal/block_model.h"

#include <array>
#include <cmath>
#include <sstream>

#include "compiler/support/error.h"

namespace polyarch::sim::thermal {

namespace {

enum Layer { kSilicon = 0, kInterface = 1, kSpreader = 2, kSink = 3, kLayerCount = 4 };
// The four sides of the die, in HotSpot's order for its package nodes (temperature.h SP_W...).
enum Side { kWest = 0, kEast = 1, kNorth = 2, kSouth = 3, kSideCount = 4 };
constexpr std::array<const char*, kLayerCount> kLayerPrefix = {"", "iface_", "hsp_", "hsink_"};

// Thermal resistance of a slab conducting along `length` through `cross_section` (RCutil.c getr).
double slab_r(double conductivity, double length, double cross_section) {
  return length / (conductivity * cross_section);
}

double slab_c(const MaterialLayer& layer, double area) {
  return kCapacitanceFactor * layer.volumetric_heat_capacity * layer.thickness_m * area;
}

bool is_x_side(int side) { return side == kWest || side == kEast; }

// The package resistances HotSpot derives from the die and package extents (temperature.c
// populate_package_R), for the die's bounding box `die_w` x `die_l`. `_x` values belong to the
// east/west periphery, `_y` to the north/south.
struct PackageGeometry {
  std::array<double, 2> ring_area;  // spreader periphery footprint: [x, y]
  double outer_area = 0.0;          // one quarter of the sink's ring outside the spreader
  std::array<double, 2> r_spreader_lateral, r_sink_inner_lateral, r_sink_outer_lateral;
  double r_sink_ring = 0.0;

  PackageGeometry(double die_w, double die_l, const PackageConfig& p) {
    const double s_sp = p.spreader.side_m, s_hs = p.sink.side_m;
    const double t_sp = p.spreader.thickness_m, t_hs = p.sink.thickness_m;
    const double k_sp = p.spreader.conductivity, k_hs = p.sink.conductivity;
    ring_area = {(s_sp + die_l) * (s_sp - die_w) / 4.0, (s_sp + die_w) * (s_sp - die_l) / 4.0};
    outer_area = (s_hs * s_hs - s_sp * s_sp) / 4.0;
    const std::array<double, 2> gap = {(s_sp - die_w) / 4.0, (s_sp - die_l) / 4.0};
    const std::array<double, 2> across = {die_l, die_w};
    for (int axis = 0; axis < 2; ++axis) {
      r_spreader_lateral[axis] = slab_r(k_sp, gap[axis], (s_sp + 3 * across[axis]) / 4.0 * t_sp);
      r_sink_inner_lateral[axis] = slab_r(k_hs, gap[axis], (s_sp + 3 * across[axis]) / 4.0 * t_hs);
      r_sink_outer_lateral[axis] = slab_r(k_hs, gap[axis], (3 * s_sp + across[axis]) / 4.0 * t_hs);
    }
    r_sink_ring = slab_r(k_hs, (s_hs - s_sp) / 4.0, (s_hs + 3 * s_sp) / 4.0 * t_hs);
  }
};

class NetworkBuilder {
 public:
  NetworkBuilder(ThermalNetwork& network, int node_count) : network_(network) {
    network_.conductance_w_per_k = SquareMatrix(node_count);
    network_.capacitance_j_per_k.assign(node_count, 0.0);
    network_.node_names.assign(node_count, "");
  }
  void connect(int a, int b, double conductance) {
    if (a < 0 || b < 0 || !(conductance > 0.0)) return;
    SquareMatrix& g = network_.conductance_w_per_k;
    g.at(a, a) += conductance;
    g.at(b, b) += conductance;
    g.at(a, b) -= conductance;
    g.at(b, a) -= conductance;
  }
  void to_ambient(int node, double conductance) {
    if (node >= 0) network_.conductance_w_per_k.at(node, node) += conductance;
  }
  void set_node(int node, std::string name, double capacitance) {
    if (node < 0) return;
    network_.node_names[node] = std::move(name);
    network_.capacitance_j_per_k[node] = capacitance;
  }

 private:
  ThermalNetwork& network_;
};

// Indices of the package nodes, -1 where the ring they model has no area.
struct PackageNodes {
  std::array<int, kSideCount> spreader{-1, -1, -1, -1};
  std::array<int, kSideCount> sink_inner{-1, -1, -1, -1};
  std::array<int, kSideCount> sink_outer{-1, -1, -1, -1};
  int count = 0;

  PackageNodes(int first, const PackageGeometry& geometry) {
    int next = first;
    for (int side = 0; side < kSideCount; ++side) {
      if (geometry.ring_area[is_x_side(side) ? 0 : 1] > kArea) spreader[side] = next++;
    }
    for (int side = 0; side < kSideCount; ++side) {
      if (spreader[side] >= 0) sink_inner[side] = next++;
    }
    for (int side = 0; side < kSideCount; ++side) {
      if (geometry.outer_area > kArea) sink_outer[side] = next++;
    }
    count = next - first;
  }
  // Below a square micrometre a ring is a rounding remainder of equal extents, not a ring.
  static constexpr double kArea = 1e-12;
};

void check_fits(const Floorplan& floorplan, const PackageConfig& package) {
  const double side = package.spreader.side_m;
  if (floorplan.width_m() > side || floorplan.height_m() > side) {
    std::ostringstream message;
    message << "the floorplan (" << floorplan.width_m() << " x " << floorplan.height_m()
            << " m) does not fit on the heat spreader (side " << side << " m)";
    throw_bad_input({floorplan.file, 0, 0, ""}, message.str());
  }
}

// Fills a network one kind of element at a time; see README.md for the equations.
class BlockNetworkAssembly {
 public:
  BlockNetworkAssembly(const Floorplan& floorplan, const PackageConfig& package,
                       ThermalNetwork& network)
      : floorplan_(floorplan),
        package_(package),
        n_(floorplan.block_count()),
        geometry_(floorplan.width_m(), floorplan.height_m(), package),
        ring_(kLayerCount * n_, geometry_),
        builder_(network, kLayerCount * n_ + ring_.count),
        layers_{&package.die, &package.tim, &package.spreader, &package.sink},
        sink_area_(package.sink.side_m * package.sink.side_m) {
    network.block_count = n_;
  }

  // Within each layer, between blocks sharing an edge: half of each block's extent normal to
  // the edge, over the edge length times the layer thickness.
  void add_lateral() {
    for (int i = 0; i < n_; ++i) {
      for (int j = i + 1; j < n_; ++j) {
        const FloorplanBlock& a = floorplan_.blocks[i];
        const FloorplanBlock& b = floorplan_.blocks[j];
        const SharedEdge edge = shared_edge(a, b);
        if (edge.length_m <= 0.0) continue;
        const double half_a = (edge.horizontal ? a.width_m : a.height_m) / 2.0;
        const double half_b = (edge.horizontal ? b.width_m : b.height_m) / 2.0;
        for (int layer = 0; layer < kLayerCount; ++layer) {
          const double k = layers_[layer]->conductivity;
          const double cross_section = edge.length_m * layers_[layer]->thickness_m;
          builder_.connect(
              node(layer, i), node(layer, j),
              1.0 / (slab_r(k, half_a, cross_section) + slab_r(k, half_b, cross_section)));
        }
      }
    }
  }

  // Per block: names, capacitances, the vertical chain and its share of the convection.
  void add_vertical() {
    for (int i = 0; i < n_; ++i) {
      const FloorplanBlock& block = floorplan_.blocks[i];
      const double area = block.area_m2();
      for (int layer = 0; layer < kSink; ++layer) {
        const MaterialLayer& material = *layers_[layer];
        builder_.set_node(node(layer, i), kLayerPrefix[layer] + block.name, slab_c(material, area));
        builder_.connect(node(layer, i), node(layer + 1, i),
                         1.0 / slab_r(material.conductivity, material.thickness_m, area));
      }
      builder_.set_node(node(kSink, i), kLayerPrefix[kSink] + block.name, sink_c(area));
      builder_.to_ambient(node(kSink, i), sink_to_ambient_g(area));
    }
  }

  // Blocks on a die edge reach the package nodes on that side: each through half its own
  // extent, in series with its share (by conductance) of the ring's lateral resistance.
  void add_die_edges() {
    const std::array<std::vector<int>, kSideCount> border = border_blocks();
    for (int side = 0; side < kSideCount; ++side) {
      const int axis = is_x_side(side) ? 0 : 1;
      for (int layer : {kSpreader, kSink}) {
        const MaterialLayer& material = *layers_[layer];
        auto half_block_g = [&](const FloorplanBlock& block) {
          const double length = (axis == 0 ? block.width_m : block.height_m) / 2.0;
          const double across = axis == 0 ? block.height_m : block.width_m;
          return 1.0 / slab_r(material.conductivity, length, across * material.thickness_m);
        };
        double side_g = 0.0;
        for (int i : border[side]) side_g += half_block_g(floorplan_.blocks[i]);
        const double r_ring = layer == kSpreader ? geometry_.r_spreader_lateral[axis]
                                                 : geometry_.r_sink_inner_lateral[axis];
        const int ring_node = layer == kSpreader ? ring_.spreader[side] : ring_.sink_inner[side];
        for (int i : border[side]) {
          builder_.connect(node(layer, i), ring_node,
                           half_block_g(floorplan_.blocks[i]) / (1.0 + r_ring * side_g));
        }
      }
    }
  }

  // Spreader periphery above the sink's inner periphery, which conducts outwards to the sink's
  // outer ring; both sink rings convect to ambient. Names follow HotSpot's node order: SP_W..S
  // are inode_0..3, SINK_C_W..S inode_4..7, SINK_W..S inode_8..11.
  void add_package_ring() {
    const PackageConfig& p = package_;
    for (int side = 0; side < kSideCount; ++side) {
      const int axis = is_x_side(side) ? 0 : 1;
      const double area = geometry_.ring_area[axis];
      const double outer = geometry_.outer_area;
      builder_.set_node(ring_.spreader[side], inode(side), slab_c(p.spreader, area));
      builder_.set_node(ring_.sink_inner[side], inode(side + 4), sink_c(area));
      builder_.set_node(ring_.sink_outer[side], inode(side + 8), sink_c(outer));
      builder_.connect(ring_.spreader[side], ring_.sink_inner[side],
                       1.0 / slab_r(p.spreader.conductivity, p.spreader.thickness_m, area));
      builder_.connect(ring_.sink_inner[side], ring_.sink_outer[side],
                       1.0 / (geometry_.r_sink_ring + geometry_.r_sink_outer_lateral[axis]));
      if (ring_.sink_inner[side] >= 0) {
        builder_.to_ambient(ring_.sink_inner[side], sink_to_ambient_g(area));
      }
      if (ring_.sink_outer[side] >= 0) {
        builder_.to_ambient(ring_.sink_outer[side], sink_to_ambient_g(outer));
      }
    }
  }

 private:
  int node(int layer, int block) const { return layer * n_ + block; }
  static std::string inode(int index) { return "inode_" + std::to_string(index); }

  // A piece of the sink of footprint `area`: its own capacitance plus its share of the
  // convection capacitance, and its path to ambient: through the sink, then its share of the
  // convection resistance (both split in proportion to area, as HotSpot does).
  double sink_c(double area) const {
    return slab_c(package_.sink, area) +
           kCapacitanceFactor * package_.convection.c_j_per_k * area / sink_area_;
  }
  double sink_to_ambient_g(double area) const {
    return 1.0 / (slab_r(package_.sink.conductivity, package_.sink.thickness_m, area) +
                  package_.convection.r_k_per_w * sink_area_ / area);
  }

  std::array<std::vector<int>, kSideCount> border_blocks() const {
    const double x0 = floorplan_.min_x_m(), y0 = floorplan_.min_y_m();
    const double die_w = floorplan_.width_m(), die_l = floorplan_.height_m();
    auto on = [](double a, double b) { return std::fabs(a - b) < kFloorplanToleranceM; };
    std::array<std::vector<int>, kSideCount> border;
    for (int i = 0; i < n_; ++i) {
      const FloorplanBlock& block = floorplan_.blocks[i];
      if (on(block.left_m, x0)) border[kWest].push_back(i);
      if (on(block.right_m(), x0 + die_w)) border[kEast].push_back(i);
      if (on(block.top_m(), y0 + die_l)) border[kNorth].push_back(i);
      if (on(block.bottom_m, y0)) border[kSouth].push_back(i);
    }
    return border;
  }

  const Floorplan& floorplan_;
  const PackageConfig& package_;
  const int n_;
  const PackageGeometry geometry_;
  const PackageNodes ring_;
  NetworkBuilder builder_;
  const std::array<const MaterialLayer*, kLayerCount> layers_;
  const double sink_area_;
};

}  // namespace

ThermalNetwork build_block_network(const Floorplan& floorplan, const PackageConfig& package) {
  check_fits(floorplan, package);
  ThermalNetwork network;
  BlockNetworkAssembly assembly(floorplan, package, network);
  assembly.add_lateral();
  assembly.add_vertical();
  assembly.add_die_edges();
  assembly.add_package_ring();
  return network;
}

}  // namespace polyarch::sim::thermal
