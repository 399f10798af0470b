#pragma once
// Temperature-dependent leakage: the units' leakage was priced at the tech
// table's reference temperature; a hotter die leaks more, which heats it further. This iterates
// power trace -> thermal model -> leakage at each block's temperature in each window until the
// temperatures move by less than a tolerance, then reprices every op's and unit's leakage.
#include "sim/physics/chip_physics.h"
#include "sim/result.h"
#include "sim/thermal/block_simulation.h"

namespace polyarch::sim {

struct LeakageFeedbackOptions {
  double tolerance_k = 0.01;  // largest temperature change between iterations at convergence
  int max_iterations = 50;
  double runaway_c = 500.0;  // beyond this the die is in thermal runaway: stop and say so
  // Where each thermal run's transient starts (as the caller's run_thermal did).
  sim::thermal::InitialTemperature initial = sim::thermal::InitialTemperature::kSteadyEveryNode;
};

// Needs result.power and result.thermal (from run_thermal); updates power, thermal, the energy
// of ops, units and the summary, and result.thermal->leakage (iterations, factors). Without
// them it does nothing.
void apply_leakage_feedback(const ChipPhysics& chip, RunResult& result,
                            const LeakageFeedbackOptions& options = {});

}  // namespace polyarch::sim
