#pragma once
// DRAM presets from public JEDEC standards and vendor datasheets. Each preset's source and the
// conversion of nanosecond parameters to clock cycles are given beside it in presets.cpp.
#include <string_view>
#include <vector>

#include "sim/memory/dram/config.h"

namespace polyarch::sim::dram {

DramConfig ddr4_3200();    // one 64-bit DDR4-3200AA (22-22-22) rank of x8 8 Gb devices
DramConfig lpddr5_6400();  // one x16 LPDDR5-6400 channel, bank-group mode
DramConfig hbm2e_3200();   // one HBM2E stack at 3.2 Gb/s/pin: 8 channels x 2 pseudo-channels
DramConfig hbm3_6400();    // one HBM3 stack at 6.4 Gb/s/pin: 16 channels x 2 pseudo-channels
DramConfig gddr6_16000();  // one x32 GDDR6 device at 16 Gb/s/pin: 2 x16 channels

// The names above without the trailing "()": "ddr4_3200", "lpddr5_6400", ...
std::vector<std::string_view> preset_names();
// Throws polyarch::Error (bad input) for an unknown name, listing the known ones.
DramConfig preset(std::string_view name);

}  // namespace polyarch::sim::dram
