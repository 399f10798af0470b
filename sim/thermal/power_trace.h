#pragma once
// A power trace in HotSpot's `.ptrace` format: a header line of block names (any order), then
// one line of watts per block per sampling interval. Samples are stored in floorplan order.
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "sim/thermal/floorplan.h"

namespace polyarch::sim::thermal {

struct PowerTrace {
  int block_count = 0;
  std::vector<double> watts;  // sample-major: watts[sample * block_count + block]

  int sample_count() const {
    return block_count == 0 ? 0 : static_cast<int>(watts.size()) / block_count;
  }
  std::span<const double> sample(int index) const {
    return {watts.data() + static_cast<std::size_t>(index) * block_count,
            static_cast<std::size_t>(block_count)};
  }
  // Per-block mean over all samples: the power HotSpot's steady state uses.
  std::vector<double> average_w() const;
};

// Parses `.ptrace` text against `floorplan`: the header must name every block once (exactly,
// or ignoring case as HotSpot's strcasecmp does); an unknown or repeated name, a line with the
// wrong number of values, a value that is not a finite number, or a trace without samples is
// bad input naming file:line.
PowerTrace parse_power_trace(const std::string& text, const std::string& file_label,
                             const Floorplan& floorplan);
PowerTrace load_power_trace(const std::filesystem::path& path, const Floorplan& floorplan);

}  // namespace polyarch::sim::thermal
