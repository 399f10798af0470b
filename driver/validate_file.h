#pragma once
// `polyarch validate`: what a file is and whether it is well formed, without simulating; and the
// key tables of an arch file's parts.
#include <filesystem>
#include <string>

namespace polyarch::driver {

// Reads `path` as the kind of file it is (arch or workload; sweeps are the sweep's,
// sweep/sweep_summary.h) and says what it holds:
// "arch 'tpu', 1 unit(s)", "workload, 12 ops", ... Bad input names file, line and key.
std::string validate_file(const std::filesystem::path& path);

// The key table of `name` (soc, memory, thermal or a unit kind) as aligned text.
std::string describe_keys(const std::string& name);

}  // namespace polyarch::driver
