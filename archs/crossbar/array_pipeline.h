#pragma once
// The arrays of a crossbar unit stepping through waves of MVMs, event by event: a wave gives
// each active replica one input vector; every vector enters bit-serially as input_slices DAC
// slices. Per slice an array group drives its rows (DAC) and reads (read_ns), latches the
// column outputs into its sample-and-hold, and asks its tile's ADC pool (adc_pool.h) to convert
// its column groups; the next slice's read starts at once, but it can only latch when the
// previous slice's conversions are done. After a vector's last slice the shift-and-add
// (peripheral_ns) combines the results, off the arrays' critical path. Tiles run in parallel
// and meet only at the wave's inputs and outputs, which the unit's tile runner moves. This is
// the simulation; the estimate's closed form is in estimate.h.
#include <cstdint>
#include <vector>

#include "archs/crossbar/params.h"
#include "archs/crossbar/tile_load.h"

namespace polyarch::archs::crossbar {

struct WaveTimeline {
  std::vector<double> ready_ns;  // per wave: its last result is shifted and added (from 0)
  double read_busy_ns = 0;       // the busiest tile's arrays reading
  double adc_busy_ns = 0;        // the busiest tile's ADC pool converting or queued
};

// Runs waves back to back from time 0 with their inputs present: wave w has shape
// `sequence[w]` (an index into each track's loads); every vector takes `input_slices` slices
// (CrossbarParams::input_slices for the op's input sign).
WaveTimeline simulate_waves(const CrossbarParams& params, int64_t input_slices,
                            const std::vector<TileTrack>& tracks, const std::vector<int>& sequence);

}  // namespace polyarch::archs::crossbar
