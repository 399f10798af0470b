#pragma once
// The package around the die that HotSpot's block and grid models share (HotSpot 6.0/7.0
// temperature.c populate_package_R/C, temperature_block.c and temperature_grid.c
// slope_fn_pack): slab resistances and capacitances, the convection split by area, and the ring
// of up to twelve nodes around the die (spreader periphery, sink under it, sink outer ring).
#include <array>
#include <string>

#include "sim/thermal/floorplan.h"
#include "sim/thermal/package_config.h"

namespace polyarch::sim::thermal {

// HotSpot's lumped-vs-distributed capacitance fitting factor (temperature.h C_FACTOR, "to match
// floworks"): every capacitance, including the convection one, is scaled by it.
constexpr double kCapacitanceFactor = 0.333;

// The four sides of the die, in HotSpot's order for its package nodes (temperature.h SP_W...).
enum Side { kWest = 0, kEast = 1, kNorth = 2, kSouth = 3, kSideCount = 4 };
inline bool is_x_side(int side) { return side == kWest || side == kEast; }

// Thermal resistance of a slab conducting along `length` through `cross_section` (RCutil.c getr).
inline double slab_r(double conductivity, double length, double cross_section) {
  return length / (conductivity * cross_section);
}
// Capacitance of a slab of footprint `area` (RCutil.c getcap).
inline double slab_c(const MaterialLayer& layer, double area) {
  return kCapacitanceFactor * layer.volumetric_heat_capacity * layer.thickness_m * area;
}
// A piece of the sink of footprint `area`: its own capacitance plus its share of the convection
// capacitance, and its path to ambient: through the sink, then its share of the convection
// resistance (both split in proportion to area, as HotSpot does).
double sink_c(const PackageConfig& package, double area);
double sink_to_ambient_g(const PackageConfig& package, double area);

// The package resistances HotSpot derives from the die and package extents (populate_package_R),
// for the die's bounding box `die_w` x `die_l`. `[0]` values belong to the east/west periphery,
// `[1]` to the north/south.
struct PackageGeometry {
  std::array<double, 2> ring_area;  // spreader periphery footprint
  double outer_area = 0.0;          // one quarter of the sink's ring outside the spreader
  std::array<double, 2> r_spreader_lateral, r_sink_inner_lateral, r_sink_outer_lateral;
  double r_sink_ring = 0.0;

  PackageGeometry(double die_w, double die_l, const PackageConfig& package);
};

// Indices of the ring nodes, -1 where the ring they model has no area (a die as wide as the
// spreader, a spreader as wide as the sink: HotSpot would divide by the zero area).
struct PackageRing {
  std::array<int, kSideCount> spreader{-1, -1, -1, -1};
  std::array<int, kSideCount> sink_inner{-1, -1, -1, -1};
  std::array<int, kSideCount> sink_outer{-1, -1, -1, -1};
  int count = 0;

  PackageRing() = default;
  // Numbers the existing nodes from `first` in HotSpot's order (SP_W..S, SINK_C_W..S,
  // SINK_W..S = inode_0..11).
  PackageRing(int first, const PackageGeometry& geometry);
  // Below a square micrometre a ring is a rounding remainder of equal extents, not a ring.
  static constexpr double kArea = 1e-12;
};

// A floorplan wider or taller than the spreader is bad input naming the floorplan file (HotSpot:
// "inordinate floorplan size").
void check_fits_spreader(const Floorplan& floorplan, const PackageConfig& package);

// Where a network assembly puts its elements.
class NetworkSink {
 public:
  virtual ~NetworkSink() = default;
  virtual void connect(int a, int b, double conductance) = 0;  // ignores a or b < 0
  virtual void to_ambient(int node, double conductance) = 0;   // ignores node < 0
  virtual void set_node(int node, std::string name, double capacitance) = 0;
};

// The ring's own elements: spreader periphery above the sink's inner periphery, which conducts
// outwards to the sink's outer ring; both sink rings convect to ambient. The die's connections
// to the ring are the caller's (they differ between the block and the grid model).
void add_package_ring(const PackageConfig& package, const PackageGeometry& geometry,
                      const PackageRing& ring, NetworkSink& sink);

}  // namespace polyarch::sim::thermal
