#pragma once
// `polyarch dram`: a memory-request trace replayed on the cycle-level JEDEC DRAM model, the
// DRAM described by an arch file's `memory.dram`, a YAML file's `dram:` map or a DRAMsim3 .ini.
#include <filesystem>
#include <string>

#include "sim/memory/dram/description.h"
#include "sim/memory/dram/replay.h"

namespace polyarch::driver {

struct DramReplayRequest {
  std::filesystem::path config;  // .ini (DRAMsim3) or YAML
  std::filesystem::path trace;
  std::string format = "dramsim3";
};

struct DramReplayOutcome {
  sim::dram::DramDescription description;
  sim::dram::ReplayResult result;
  std::string note;          // the keys the configuration gives that are not modelled; or ""
  std::string json;          // the result as the --json file holds it
  std::string summary_text;  // the result as the command prints it
};

// Reads the DRAM description by the file's kind: `.ini` is DRAMsim3's format; YAML holds a
// top-level `dram:` map or an arch file's `memory: {dram: ...}`.
sim::dram::DramDescription load_dram_description(const std::filesystem::path& path);

// Bad input (exit 2) names the file, line and key or the trace's file and line.
DramReplayOutcome run_dram_replay(const DramReplayRequest& request);

}  // namespace polyarch::driver
