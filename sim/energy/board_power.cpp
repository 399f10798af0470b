#include "sim/energy/board_power.h"

namespace polyarch::sim {

std::optional<double> board_power_w(std::optional<double> chip_w,
                                    std::optional<double> regulator_efficiency) {
  if (!chip_w || !regulator_efficiency) return std::nullopt;
  return *chip_w / *regulator_efficiency;
}

}  // namespace polyarch::sim
