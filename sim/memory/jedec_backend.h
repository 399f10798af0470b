#pragma once
// The cycle-level JEDEC model (dram/dram_system.h) as the memory behind a simulation: requests
// arrive one at a time, in the order units issue them, each as address pieces; its bursts go to
// the controllers their addresses map to (so a request spreads over channels, bank groups and
// banks as the address mapping interleaves them), where FR-FCFS schedules them against the bank
// state earlier requests left. Each request is served to its last burst before the next one is
// taken, so a later request never overtakes an earlier one at the controllers: units meet at the
// banks and command buses in issue order. Cycles are DRAM command-clock cycles. SystemC-free.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "sim/memory/address_range.h"
#include "sim/memory/dram/checker.h"
#include "sim/memory/dram/dram_system.h"

namespace polyarch::sim {

struct JedecService {
  int64_t last_command_cycle = 0;  // the request's last RD or WR left the command bus
  int64_t completion_cycle = 0;    // its last data beat left the data bus
  dram::ServedCounts served;       // what serving it added to the controllers' counters
  // Bytes it moved on each DRAM channel (index: channel); reused from one request to the next.
  std::span<const int64_t> channel_bytes;
};

class JedecBackend {
 public:
  // `record_commands`: keep every issued command, for check().
  JedecBackend(const dram::DramConfig& config, bool record_commands);

  // Serves a request of `pieces` (bytes > 0 in all) arriving at `arrival_cycle`; a request
  // arriving while the controllers still serve earlier ones queues behind them.
  JedecService serve(std::span<const AddressRange> pieces, bool is_write, int64_t arrival_cycle);

  // PIM work on every pseudo-channel's banks (dram/pim_sequencer.h), queued behind the
  // requests served before it like a request. `internal_bytes` (may be empty) receives each
  // PIM column command's bytes between banks and PUs, with its channel and cycle.
  JedecService serve_pim(const dram::PimBlock& block, int64_t arrival_cycle,
                         const dram::PimInternalBytesSink& internal_bytes = {});
  dram::PimCounters pim_counters() const { return system_.pim_counters(); }

  dram::DramStats stats() const { return system_.stats(); }
  const dram::DramConfig& config() const { return system_.config(); }
  // The first JEDEC timing violation in any pseudo-channel's recorded command stream (the
  // independent checker, dram/checker.h); nullopt when all are legal or none was recorded.
  std::optional<dram::TimingViolation> check() const;
  int64_t commands_recorded() const;

 private:
  static dram::DramConfig with_recording(dram::DramConfig config, bool record_commands);

  dram::DramSystem system_;
  std::vector<dram::Request> requests_;  // serve()'s pieces, kept to reuse the allocation
  // From a column command to its last data beat.
  int64_t read_data_cycles_ = 0;
  int64_t write_data_cycles_ = 0;
};

}  // namespace polyarch::sim
