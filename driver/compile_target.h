#pragma once
// What the compiler takes from the target architecture: the convolution layout its units
// prefer (`--layout auto`).
#include <optional>

#include "archs/soc/soc_config.h"
#include "compiler/ir/op.h"

namespace polyarch::driver {

// The preferred convolution layout of the first of the SoC's units that runs convolutions;
// nullopt when none does (the import's NCHW stays).
std::optional<ir::Layout> target_conv_layout(const archs::SocConfig& soc);

}  // namespace polyarch::driver
