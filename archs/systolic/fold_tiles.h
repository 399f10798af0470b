#pragma once
// A systolic fold plan as the shared tile runner (sim/pipeline/) executes it: each fold is a tile
// with its cycles and DRAM traffic, the runs, blocks and GEMM repeats kept as they are. What the
// runner does not need (SRAM counts, MACs, array occupancy) stays in the SystolicPlan.
#include "archs/systolic/cost_model.h"
#include "sim/pipeline/tile_plan.h"

namespace polyarch::archs::systolic {

sim::TilePlan fold_tiles(const SystolicPlan& plan);

}  // namespace polyarch::archs::systolic
