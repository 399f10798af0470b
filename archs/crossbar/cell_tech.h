#pragma once
// What a crossbar cell costs in a technology: the tech files' `crossbar_cell:` section, one entry
// per cell device per action. The technology table holds the numbers (configs/tech/*.yaml cite
// their sources); the crossbar declares the section and says what its entries mean.
#include <string>
#include <vector>

#include "sim/energy/tech_table.h"

namespace polyarch::archs::crossbar {

// `crossbar_cell: {<device>: {read_fj, write_pj}}`, which every tech file prices.
const sim::TechDeviceSection& cell_tech_section();
// The devices a cell can be made of ("rram", "pcm", "sram"), in file order.
const std::vector<std::string>& cell_devices();

// Energy per cell per read pulse (one input bit-slice on its row), and per cell programmed.
double cell_read_fj(const sim::TechTable& tech, const std::string& device);
double cell_write_pj(const sim::TechTable& tech, const std::string& device);

}  // namespace polyarch::archs::crossbar
