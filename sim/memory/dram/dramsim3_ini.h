#pragma once
// DRAMsim3's configuration files (its configs/*.ini) read as they are: [dram_structure],
// [timing] and [system] describe the DRAM the way DRAMsim3 interprets them (a missing key takes
// DRAMsim3's default; GDDR column counts are per burst beat, HBM's twice the file's; GDDR and
// HBM use tRCDRD/tRCDWR; one bank group turns the _L timings into the _S ones; ranks follow
// from channel_size). Keys polyarch does not model ([power], tCKE, ...) are collected in
// DramDescription::unmodelled_keys; an unknown key or section, or a value the model cannot
// take (more than one rank, per-bank refresh, HMC), is bad input naming file, section and key.
#include <filesystem>
#include <istream>
#include <string>

#include "sim/memory/dram/description.h"

namespace polyarch::sim::dram {

DramDescription read_dramsim3_ini(std::istream& in, const std::string& file_label);
DramDescription read_dramsim3_ini_file(const std::filesystem::path& path);

}  // namespace polyarch::sim::dram
