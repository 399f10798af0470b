#include "sim/memory/dram/description.h"

#include <cmath>

namespace polyarch::sim::dram {

std::vector<std::string> dram_standards() {
  return {"ddr3", "ddr4", "ddr5", "lpddr4", "lpddr5", "hbm2", "hbm2e", "hbm3", "gddr6"};
}

std::string preset_standard(const std::string& preset_name) {
  return preset_name.substr(0, preset_name.find('_'));
}

int64_t clock_mhz_for_period(double tck_ns) { return std::llround(1000.0 / tck_ns); }

std::string unmodelled_note(const std::string& file, const std::vector<std::string>& keys) {
  if (keys.empty()) return "";
  std::string note = "note: " + file + ": not modelled by polyarch, read and left out: ";
  for (size_t i = 0; i < keys.size(); ++i) note += (i == 0 ? "" : ", ") + keys[i];
  return note;
}

}  // namespace polyarch::sim::dram
