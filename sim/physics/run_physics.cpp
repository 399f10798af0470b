#include "sim/physics/run_physics.h"

#include <algorithm>

#include "sim/energy/board_power.h"
#include "sim/energy/chip_background.h"
#include "sim/energy/energy_accounting.h"
#include "sim/energy/power_trace.h"
#include "sim/thermal/leakage_feedback.h"
#include "sim/thermal/thermal_run.h"

namespace polyarch::sim {

void add_energy_power_thermal(const ChipPhysics& chip, RunResult& result,
                              double power_window_s, sim::thermal::InitialTemperature initial,
                              const std::function<void(sim::RunResult&)>& reprice,
                              const std::map<std::string, PowerDensity>& density_by_unit) {
  account_energy(chip, result);
  if (reprice) reprice(result);
  result.power = build_power_trace(result, power_window_s, density_by_unit);
  result.thermal = run_thermal(chip, result, initial);
  LeakageFeedbackOptions leakage;
  leakage.initial = initial;
  apply_leakage_feedback(chip, result, leakage);
  // After the units' energy is final: the thermal model's blocks are the units, so the chip's
  // background (DRAM off the die, uncore spread over it) heats no block.
  add_chip_background_energy(chip, result);
  result.summary.board_power_w =
      board_power_w(result.summary.avg_power_w, chip.board_regulator_efficiency);
  if (!result.thermal) return;
  // From a cold start the steady state (the average power held forever) was never reached.
  double peak = initial == sim::thermal::InitialTemperature::kAmbient
                    ? -273.15
                    : *std::max_element(result.thermal->steady_c.begin(),
                                        result.thermal->steady_c.end());
  for (const std::vector<double>& block : result.thermal->celsius) {
    for (double celsius : block) peak = std::max(peak, celsius);
  }
  result.summary.peak_temp_c = peak;
}

}  // namespace polyarch::sim
