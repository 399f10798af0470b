#include "driver/compile_target.h"

namespace polyarch::driver {

std::optional<ir::Layout> target_conv_layout(const archs::SocConfig& soc) {
  ir::Conv2dAttrs probe;
  probe.c = probe.h = probe.w = probe.k = 8;
  probe.r = probe.s = 3;
  ir::Op conv;
  conv.name = "layout probe";
  conv.attrs = probe;
  for (const auto& unit : soc.units) {
    if (unit->supports(conv)) return unit->preferred_conv_layout();
  }
  return std::nullopt;
}

}  // namespace polyarch::driver
