#include "sim/thermal/block_model.h"

#include <array>
#include <cmath>

namespace polyarch::sim::thermal {

namespace {

enum Layer { kSilicon = 0, kInterface = 1, kSpreader = 2, kSink = 3, kLayerCount = 4 };
constexpr std::array<const char*, kLayerCount> kLayerPrefix = {"", "iface_", "hsp_", "hsink_"};

class NetworkBuilder : public NetworkSink {
 public:
  NetworkBuilder(ThermalNetwork& network, int node_count) : network_(network) {
    network_.conductance_w_per_k = SquareMatrix(node_count);
    network_.capacitance_j_per_k.assign(node_count, 0.0);
    network_.node_names.assign(node_count, "");
  }
  void connect(int a, int b, double conductance) override {
    if (a < 0 || b < 0 || !(conductance > 0.0)) return;
    SquareMatrix& g = network_.conductance_w_per_k;
    g.at(a, a) += conductance;
    g.at(b, b) += conductance;
    g.at(a, b) -= conductance;
    g.at(b, a) -= conductance;
  }
  void to_ambient(int node, double conductance) override {
    if (node >= 0) network_.conductance_w_per_k.at(node, node) += conductance;
  }
  void set_node(int node, std::string name, double capacitance) override {
    if (node < 0) return;
    network_.node_names[node] = std::move(name);
    network_.capacitance_j_per_k[node] = capacitance;
  }

 private:
  ThermalNetwork& network_;
};

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
        layers_{&package.die, &package.tim, &package.spreader, &package.sink} {
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
      builder_.set_node(node(kSink, i), kLayerPrefix[kSink] + block.name, sink_c(package_, area));
      builder_.to_ambient(node(kSink, i), sink_to_ambient_g(package_, area));
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

  void add_package_ring() { thermal::add_package_ring(package_, geometry_, ring_, builder_); }

 private:
  int node(int layer, int block) const { return layer * n_ + block; }

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
  const PackageRing ring_;
  NetworkBuilder builder_;
  const std::array<const MaterialLayer*, kLayerCount> layers_;
};

}  // namespace

ThermalNetwork build_block_network(const Floorplan& floorplan, const PackageConfig& package) {
  check_fits_spreader(floorplan, package);
  ThermalNetwork network;
  BlockNetworkAssembly assembly(floorplan, package, network);
  assembly.add_lateral();
  assembly.add_vertical();
  assembly.add_die_edges();
  assembly.add_package_ring();
  return network;
}

}  // namespace polyarch::sim::thermal
