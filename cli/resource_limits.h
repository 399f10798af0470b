#pragma once
// Guards against pathological configurations: a wall-clock limit that ends the process with a
// clear message (exit 1) instead of running forever, and an address-space limit under which an
// allocation failure becomes the "out of memory" error (exit 1). Outputs are only written once
// a run has finished, so ending early never leaves a half-written file.
#include <optional>
#include <string>

namespace polyarch::cli {

struct ResourceLimits {
  std::optional<double> max_seconds;     // wall clock
  std::optional<double> max_memory_gib;  // virtual address space
};

// Parses --max-sim-seconds and --max-memory values (positive numbers; memory in GiB, or with a
// suffix: 512M, 2G); bad values are bad input naming the option.
ResourceLimits parse_resource_limits(const std::optional<std::string>& max_seconds,
                                     const std::optional<std::string>& max_memory);

// A positive, finite number given to option `--option`, times `scale`; else bad input naming it.
double parse_positive(const std::string& option, const std::string& text, double scale);

// Installs the limits for the rest of the process.
void apply_resource_limits(const ResourceLimits& limits);

}  // namespace polyarch::cli
