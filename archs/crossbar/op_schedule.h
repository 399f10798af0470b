#pragma once
// A crossbar op as the unit's SystemC model runs it: tiles for the shared loader / compute /
// drain runner (sim/pipeline/tile_runner.h), double-buffered so that the next wave's inputs
// arrive and the last wave's outputs leave while the arrays compute.
//   - Weights that do not fit run in passes; each pass first reprograms its arrays row by row
//     (one write driver per array, all arrays in parallel): a tile per row, its weights read
//     from DRAM and written in cell.write_ns_per_row, so reprogramming is limited by whichever
//     of the write drivers and the DRAM stream is slower.
//   - Then every wave (one input vector per replica; one vector per wave in a reprogrammed
//     pass, which holds one copy of part of the weights) is a tile that reads its vectors and
//     writes its outputs. Its compute time is the spacing of the waves' results in the array
//     pipeline (array_pipeline.h: DAC slices, reads, the tiles' shared ADC pools,
//     shift-and-add), simulated for the first waves of each distinct shape and repeated for the
//     identical waves after them; the first wave of a pass also carries the pipeline's fill.
//     With timed buffers and bus (activation_path.h) a wave lasts at least its transfers, the
//     first wave's inputs arrive before it (a tile of their transfer time) and the last wave's
//     outputs leave after it (another).
// SystemC-free: the module runs the tiles, tests read the schedule.
#include <cstdint>
#include <vector>

#include "archs/crossbar/cost_model.h"
#include "archs/crossbar/params.h"
#include "sim/pipeline/tile_plan.h"

namespace polyarch::archs::crossbar {

struct CrossbarSchedule {
  // Run one after another (cycles in the unit's clock): with many reprogrammed passes, one
  // period of their column-block offsets repeated, then the passes left and the last.
  std::vector<sim::TilePlan> plans;
  int64_t compute_cycles = 0;   // the tiles' cycles: arrays and reprogramming
  double read_busy_ns = 0;      // the busiest tile's arrays reading, over the op
  double adc_busy_ns = 0;       // the busiest tile's ADC pool busy, over the op
  double program_ns = 0;        // reprogramming's row writes, over the op
  double buffer_busy_ns = 0;    // the busiest buffer port's transfers, over the op
  double bus_busy_ns = 0;       // the bus's transfers, over the op
  int64_t waves = 0;            // over all passes
  int64_t dram_read_bytes = 0;  // the tiles' reads: inputs (each pass) and reprogrammed weights
  int64_t dram_write_bytes = 0;
};

CrossbarSchedule schedule_op(const CrossbarParams& params, const CrossbarPlan& plan,
                             double clock_ghz);

}  // namespace polyarch::archs::crossbar
