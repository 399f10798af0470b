#pragma once
// Power the chip draws outside its units' ops, for as long as the run lasts: the DRAM's
// background (active standby and refresh of every channel) and the leakage of the die area no
// unit's model prices. Added to the run's summary once its units' energy is final.
#include "sim/physics/chip_physics.h"
#include "sim/result.h"

namespace polyarch::sim {

// Energy (J) by action over `latency_s`: dram_background (channels x the tech table's
// background power per channel) and, when the chip states its die area, uncore_leakage (the die
// less `modelled_area_mm2`, at the tech table's leakage density). The uncore is no block of the
// floorplan, so the thermal model gives it no temperature: it leaks at the table's reference
// temperature. The units' temperatures would overstate it: their power heats the modelled area
// alone, not the whole die.
EnergyByAction chip_background_energy(const ChipPhysics& chip, double modelled_area_mm2,
                                      double latency_s);

// Adds chip_background_energy to the summary of a run whose units' energy is complete
// (account_energy, and any repricing after it): the modelled area is the units' areas, and
// avg_power_w follows.
void add_chip_background_energy(const ChipPhysics& chip, RunResult& result);

}  // namespace polyarch::sim
