// `polyarch dram`: replays a memory-request trace on the cycle-level JEDEC DRAM model and
// prints (and optionally writes as JSON) bandwidth, latency and row-buffer counts.
#include <filesystem>
#include <iostream>

#include "base/error.h"
#include "cli/arguments.h"
#include "cli/commands.h"
#include "driver/dram_replay.h"
#include "reports/output_files.h"

namespace polyarch::cli {

namespace {

constexpr const char* kDramHelp =
    R"(usage: polyarch dram --config FILE --trace TRACE [--format dramsim3] [--json OUT]

Replays a memory-request trace on the cycle-level JEDEC DRAM model (FR-FCFS controllers,
bank and bus timing, refresh) and reports what the DRAM delivered.

  --config FILE   the DRAM: an arch YAML file (its `memory.dram` map), a YAML file holding a
                  `dram:` map (a preset with JEDEC-named overrides; see docs/dram.md), or a
                  DRAMsim3 .ini file read as it is; keys polyarch does not model are listed
                  in one note
  --trace TRACE   one request per line: `0x<hex address> READ|WRITE <arrival cycle>`, cycles
                  of tCK, never going backwards. Requests enter the controller in trace order,
                  at most one per cycle and never before their arrival cycle
  --format NAME   the trace format: dramsim3 (the only one)
  --json OUT      also write the figures as JSON to OUT (nothing is written on error)

Printed and written: requests, reads, writes, cycles (until the last data transfer),
bandwidth_gbps, peak_bandwidth_gbps, mean/p50/p99 read latency in cycles (from entering the
controller queue to the last data beat), mean read latency in ns, row hits, misses and
conflicts, refreshes.
)";

}  // namespace

int dram_command(const CommandArgs& args) {
  if (wants_help(args)) {
    std::cout << kDramHelp;
    return 0;
  }
  Arguments parsed(args, {{"config"}, {"trace"}, {"format"}, {"json"}});
  if (!parsed.positionals().empty()) {
    throw_bad_input({}, "unexpected argument '" + parsed.positionals().front() + "' (see --help)");
  }
  driver::DramReplayRequest request;
  request.config = parsed.required("config");
  request.trace = parsed.required("trace");
  request.format = parsed.value("format").value_or("dramsim3");
  const driver::DramReplayOutcome outcome = driver::run_dram_replay(request);

  if (auto json = parsed.value("json")) {
    const std::filesystem::path out(*json);
    const std::filesystem::path directory = out.has_parent_path() ? out.parent_path() : ".";
    reports::write_files_atomically(directory, {{out.filename().string(), outcome.json}});
  }
  if (!outcome.note.empty()) std::cout << outcome.note << "\n";
  std::cout << outcome.summary_text;
  if (auto json = parsed.value("json")) std::cout << "wrote " << *json << "\n";
  return 0;
}

}  // namespace polyarch::cli
