#pragma once
// The fraction of peak bandwidth a DRAM configuration sustains on a long sequential read
// stream, measured on the timing model (refresh, row switches and activation limits included).
// An arch file's `memory.dram.timing: <preset>` scales its ideal channel by it.
#include <cstdint>
#include <string_view>

#include "sim/memory/dram/config.h"

namespace polyarch::sim::dram {

// Sequential 256-byte reads, all waiting at cycle 0, long enough that every pseudo-channel
// sees `refresh_intervals` refreshes.
double streaming_efficiency(const DramConfig& config, int64_t refresh_intervals);

// streaming_efficiency of one channel of a preset (presets.h) over 4 refresh intervals,
// computed once per process and preset. Throws a bad-input error for an unknown preset.
double preset_streaming_efficiency(std::string_view preset_name);

}  // namespace polyarch::sim::dram
