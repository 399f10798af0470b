#pragma once
// A HotSpot-style trace run in grid mode: the steady state at the trace's average power and the
// block temperatures at the end of every sampling interval, in kelvin, read at each block's
// centre cells as HotSpot's grid model reports them. `kSteady` and `kAmbient` start as HotSpot
// does (block-level temperatures spread uniformly over each block's cells, 0 K in gaps);
// `kSteadyEveryNode` starts every cell at the exact steady state.
#include <span>
#include <vector>

#include "sim/thermal/block_simulation.h"
#include "sim/thermal/envelope_cholesky.h"
#include "sim/thermal/grid_model.h"

namespace polyarch::sim::thermal {

// The lower triangle of G (G·θ = P, θ every node's rise above ambient).
std::vector<SymmetricEntry> conductance_entries(const GridNetwork& network);

BlockThermalResult simulate_grid_thermal(const Floorplan& floorplan, const PowerTrace& trace,
                                         const PackageConfig& package, InitialTemperature initial,
                                         GridSize size = {});

}  // namespace polyarch::sim::thermal
