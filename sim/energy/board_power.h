#pragma once
// Power at the board's input: what a board-level meter (nvidia-smi's power.draw) reads is the
// chip's power (with its DRAM) plus what the board's voltage regulators lose converting it.
#include <optional>

namespace polyarch::sim {

// `chip_w` / `regulator_efficiency`; nullopt where either is missing (no energy model, or the
// arch states no board).
std::optional<double> board_power_w(std::optional<double> chip_w,
                                    std::optional<double> regulator_efficiency);

}  // namespace polyarch::sim
