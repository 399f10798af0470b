#include "sim/thermal/package_ring.h"

#include <sstream>

#include "base/error.h"

namespace polyarch::sim::thermal {

void check_fits_spreader(const Floorplan& floorplan, const PackageConfig& package) {
  const double side = package.spreader.side_m;
  if (floorplan.width_m() > side || floorplan.height_m() > side) {
    std::ostringstream message;
    message << "the floorplan (" << floorplan.width_m() << " x " << floorplan.height_m()
            << " m) does not fit on the heat spreader (side " << side << " m)";
    throw_bad_input({floorplan.file, 0, 0, ""}, message.str());
  }
}

double sink_c(const PackageConfig& package, double area) {
  const double sink_area = package.sink.side_m * package.sink.side_m;
  return slab_c(package.sink, area) +
         kCapacitanceFactor * package.convection.c_j_per_k * area / sink_area;
}

double sink_to_ambient_g(const PackageConfig& package, double area) {
  const double sink_area = package.sink.side_m * package.sink.side_m;
  return 1.0 / (slab_r(package.sink.conductivity, package.sink.thickness_m, area) +
                package.convection.r_k_per_w * sink_area / area);
}

PackageGeometry::PackageGeometry(double die_w, double die_l, const PackageConfig& p) {
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

PackageRing::PackageRing(int first, const PackageGeometry& geometry) {
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

void add_package_ring(const PackageConfig& p, const PackageGeometry& geometry,
                      const PackageRing& ring, NetworkSink& sink) {
  auto inode = [](int index) { return "inode_" + std::to_string(index); };
  for (int side = 0; side < kSideCount; ++side) {
    const int axis = is_x_side(side) ? 0 : 1;
    const double area = geometry.ring_area[axis];
    const double outer = geometry.outer_area;
    sink.set_node(ring.spreader[side], inode(side), slab_c(p.spreader, area));
    sink.set_node(ring.sink_inner[side], inode(side + 4), sink_c(p, area));
    sink.set_node(ring.sink_outer[side], inode(side + 8), sink_c(p, outer));
    sink.connect(ring.spreader[side], ring.sink_inner[side],
                 1.0 / slab_r(p.spreader.conductivity, p.spreader.thickness_m, area));
    sink.connect(ring.sink_inner[side], ring.sink_outer[side],
                 1.0 / (geometry.r_sink_ring + geometry.r_sink_outer_lateral[axis]));
    if (ring.sink_inner[side] >= 0)
      sink.to_ambient(ring.sink_inner[side], sink_to_ambient_g(p, area));
    if (ring.sink_outer[side] >= 0)
      sink.to_ambient(ring.sink_outer[side], sink_to_ambient_g(p, outer));
  }
}

}  // namespace polyarch::sim::thermal
