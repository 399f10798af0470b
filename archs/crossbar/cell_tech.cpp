#include "archs/crossbar/cell_tech.h"

namespace polyarch::archs::crossbar {

const sim::TechDeviceSection& cell_tech_section() {
  static const sim::TechDeviceSection section = {
      "crossbar_cell", {"rram", "pcm", "sram"}, {"read_fj", "write_pj"}};
  return section;
}

const std::vector<std::string>& cell_devices() { return cell_tech_section().devices; }

double cell_read_fj(const sim::TechTable& tech, const std::string& device) {
  return tech.device_entry(cell_tech_section().name, device, "read_fj");
}

double cell_write_pj(const sim::TechTable& tech, const std::string& device) {
  return tech.device_entry(cell_tech_section().name, device, "write_pj");
}

}  // namespace polyarch::archs::crossbar
