#pragma once
// A DRAM system as a configuration file describes it (a YAML `dram:` map or a DRAMsim3 .ini):
// the timing model's configuration plus what the file said that the model records but does
// not simulate.
#include <string>
#include <vector>

#include "sim/memory/dram/config.h"

namespace polyarch::sim::dram {

struct DramDescription {
  DramConfig config;
  std::string model = "jedec";  // jedec | simple: which model a run should use
  std::string standard;         // ddr4, hbm2, ...
  int device_width_bits = 8;    // data pins of one device (recorded; capacity uses bus width)
  // Keys the file gives that polyarch does not model, "section.key" each, in file order.
  std::vector<std::string> unmodelled_keys;
};

// The JEDEC standards a description may name.
std::vector<std::string> dram_standards();
// The standard a preset implements ("ddr4_3200" -> "ddr4").
std::string preset_standard(const std::string& preset_name);
// The command clock in MHz for a period in ns, rounded to the nearest MHz (DramOrganization
// counts the clock in whole MHz; 0.63 ns is 1587 MHz).
int64_t clock_mhz_for_period(double tck_ns);
// One line naming the unmodelled keys, for the command to print once; "" when there are none.
std::string unmodelled_note(const std::string& file, const std::vector<std::string>& keys);

}  // namespace polyarch::sim::dram
