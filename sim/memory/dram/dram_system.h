#pragma once
// A DRAM system: the address mapping in front of one controller per pseudo-channel. Requests
// of any size are split into bursts, each served by the controller its address maps to; a
// request completes when its last burst's data has been transferred. Cycles are DRAM
// command-clock cycles (DramConfig::clock_mhz).
#include <cstdint>
#include <span>
#include <vector>

#include "sim/memory/dram/address_mapping.h"
#include "sim/memory/dram/command.h"
#include "sim/memory/dram/config.h"
#include "sim/memory/dram/controller.h"
#include "sim/memory/dram/stats.h"

namespace polyarch::sim::dram {

struct Request {
  int64_t addr = 0;  // physical byte address
  bool is_write = false;
  int64_t bytes = 64;  // > 0; every burst it touches is transferred
  int64_t arrival_cycle = 0;
};

class DramSystem {
 public:
  // Validates the configuration (polyarch::Error on an invalid one). `column_runs`: the
  // controllers issue runs of row hits whole (column_run.h; same commands, same cycles);
  // false decides every command on its own, the reference the fast path is tested against.
  explicit DramSystem(const DramConfig& config, bool column_runs = true);

  // Returns the request's id: 0, 1, 2, ... in the order of enqueue() calls (serve() takes none).
  int64_t enqueue(const Request& request);
  // Simulates until every enqueued request has completed.
  void run();
  // For requests that enter one at a time (trace replay): simulates the cycles before `cycle`
  // of the controller `byte_address` maps to and says whether its queue has room for a burst
  // (a write if `is_write`) arriving at `cycle`. Bursts enqueued afterwards must not arrive
  // before `cycle`.
  bool accepts_burst_at(int64_t byte_address, bool is_write, int64_t cycle);
  // Simulates every controller up to `cycle`: after run(), the refreshes an idle controller
  // issues on schedule until then.
  void run_until(int64_t cycle);
  // For requests served one at a time as they arrive (the jedec backend of a simulation):
  // brings the controllers `pieces` map to up to their arrival (refreshing on schedule while
  // idle), enqueues them and serves them to their last burst. Every piece must arrive at the
  // same cycle, no earlier than any piece served before. Controllers no piece maps to are left
  // where they are and catch up when next used, so a request costs what its own controllers
  // do. Returns the cycle its last data beat left the bus.
  int64_t serve(std::span<const Request> pieces);
  // PIM work (pim_sequencer.h): the same block on every pseudo-channel's banks (the PUs sit in
  // all of them), arriving at `arrival`, no earlier than any request served before. Returns the
  // latest last column command and completion over the pseudo-channels; served() then holds
  // the bursts it added (none, unless host bursts were waiting). `internal_bytes` (may be
  // empty) receives each PIM column command's bytes between banks and PUs, with its channel and
  // cycle.
  PimBlockResult serve_pim(const PimBlock& block, int64_t arrival,
                           const PimInternalBytesSink& internal_bytes = {});
  PimCounters pim_counters() const;
  // What the last serve() added to the counters of the controllers it used, and the bytes it
  // moved on each channel (index: channel).
  const ServedCounts& served() const { return served_; }
  std::span<const int64_t> served_channel_bytes() const { return served_channel_bytes_; }

  // Cycle at which the request's last data beat left the bus; -1 before run() served it.
  int64_t completion_cycle(int64_t request_id) const;
  const std::vector<int64_t>& completion_cycles() const { return completion_; }

  // All controllers' counters summed.
  DramStats stats() const;
  // Bytes moved over (last completion - first arrival), in GB/s, and as a fraction of peak.
  double achieved_bandwidth_gbps() const;
  double bandwidth_efficiency() const;

  // The command stream one pseudo-channel's controller issued (if recording is enabled).
  const std::vector<Command>& commands(int channel, int pseudo_channel) const;
  const DramConfig& config() const { return config_; }
  const AddressMapping& mapping() const { return mapping_; }

 private:
  void check_request(const Request& request) const;  // bad input unless bytes > 0, ...
  int64_t new_request();                             // its id, not yet completed
  int index_of(const DramAddress& address) const {
    return address.channel * config_.organization.pseudo_channels + address.pseudo_channel;
  }
  Controller& controller_of(const DramAddress& address);

  DramConfig config_;
  AddressMapping mapping_;
  std::vector<Controller> controllers_;  // channel-major
  std::vector<int64_t> completion_;
  std::vector<int> touched_;               // serve(): the controllers of the request in progress
  std::vector<char> is_touched_;           // ... per controller
  std::vector<ServedCounts> touched_before_;  // ... their counters when first touched
  ServedCounts served_;
  std::vector<int64_t> served_channel_bytes_;
};

}  // namespace polyarch::sim::dram
