#pragma once
// What a unit's energy model needs besides its own parameters: the technology table (after the
// arch file's overrides) and the SoC's DRAM kind.
#include <string>

#include "sim/energy/tech_table.h"

namespace polyarch::sim {

struct EnergyContext {
  const TechTable& tech;
  std::string dram_kind;  // a key of dram_pj_per_bit: "ddr4", "hbm2", ...
};

}  // namespace polyarch::sim
