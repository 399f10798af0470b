#include "sim/roofline.h"

namespace polyarch::sim {

nlohmann::ordered_json roofline_json(const RooflinePoint& point) {
  const double flops = static_cast<double>(point.flops);
  const double bytes = static_cast<double>(point.dram_bytes);
  const double seconds = point.seconds;
  return {{"flops", point.flops},
          {"dram_bytes", point.dram_bytes},
          {"ops_per_byte",
           bytes > 0 ? nlohmann::ordered_json(flops / bytes) : nlohmann::ordered_json(nullptr)},
          {"attained_flops_per_s", seconds > 0 ? flops / seconds : 0.0},
          {"attained_dram_bytes_per_s", seconds > 0 ? bytes / seconds : 0.0},
          {"peak_flops_per_s", point.peak_flops_per_s},
          {"dram_bytes_per_s", point.dram_bytes_per_s ? nlohmann::ordered_json(*point.dram_bytes_per_s)
                                                      : nlohmann::ordered_json(nullptr)}};
}

}  // namespace polyarch::sim
