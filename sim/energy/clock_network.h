#pragma once
// The clock network's energy: the clock toggles every cycle at every clocked storage bit,
// whether or not the bit's data changes, so a clocked unit draws it for the run's whole length,
// busy or idle.
#include <cstdint>

#include "sim/energy/tech_table.h"

namespace polyarch::sim {

// Energy (J) of clocking `clocked_bits` flip-flops for `cycles` cycles of their clock:
// bits x cycles x C_sink x Vdd^2 (TechTable::clock_pj_per_bit_cycle).
double clock_network_j(const TechTable& tech, double clocked_bits, int64_t cycles);

}  // namespace polyarch::sim
