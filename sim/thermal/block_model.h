#pragma once
// HotSpot's block-mode compact thermal network (HotSpot 6.0/7.0, temperature_block.c and the
// package part of temperature.c): four nodes per floorplan block (silicon, thermal interface,
// spreader, heat sink under the block) and up to twelve package nodes around the die (spreader
// periphery, sink periphery under the spreader, sink outer ring). Equations: README.md.
#include <string>
#include <vector>

#include "sim/thermal/dense_matrix.h"
#include "sim/thermal/floorplan.h"
#include "sim/thermal/package_config.h"
#include "sim/thermal/package_ring.h"

namespace polyarch::sim::thermal {

struct ThermalNetwork {
  int block_count = 0;
  // Node order: silicon [0, n), interface [n, 2n), spreader [2n, 3n), sink [3n, 4n), then the
  // package nodes that exist for this geometry. Names follow HotSpot's steady-file dump:
  // "B", "iface_B", "hsp_B", "hsink_B", "inode_0".."inode_11".
  std::vector<std::string> node_names;
  // G with G·θ = P for θ the rise above ambient: lateral and vertical conductances between
  // nodes, plus each node's conductance to ambient on the diagonal (W/K).
  SquareMatrix conductance_w_per_k;
  std::vector<double> capacitance_j_per_k;

  int node_count() const { return static_cast<int>(capacitance_j_per_k.size()); }
};

// Builds the network. A floorplan wider or taller than the spreader is bad input naming the
// floorplan file. A package ring of zero width (die as wide as the spreader, spreader as wide
// as the sink) has no nodes: HotSpot would divide by its zero area.
ThermalNetwork build_block_network(const Floorplan& floorplan, const PackageConfig& package);

}  // namespace polyarch::sim::thermal
