#pragma once
// DRAM as a shared SystemC resource: one queue in front of a channel of fixed bandwidth, plus
// the on-chip interconnect in front of it. Requests are served first come, first served; a
// request occupies the channel for bytes / bandwidth and completes `latency` after its last
// byte left the channel, so latency overlaps with later requests while bandwidth does not.
// Contention between units emerges from the shared queue.
#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "sim/memory/dram_spec.h"

namespace polyarch::sim {

// When a request's last byte leaves the channel (`sent`: the buffer that held or receives it
// is free again from the channel's side) and when it is complete (`complete` = sent + latency).
struct DramTicket {
  sc_core::sc_time sent;
  sc_core::sc_time complete;
};

class DramChannel : public sc_core::sc_module {
 public:
  DramChannel(sc_core::sc_module_name name, const DramSpec& dram,
              const InterconnectSpec& interconnect, double soc_clock_ghz);

  // Each requester registers once at elaboration; the id tags its traffic.
  int register_initiator(const std::string& initiator_name);
  int initiator_count() const { return static_cast<int>(initiators_.size()); }

  // Blocking; call from an SC_THREAD. Returns when the transfer has completed.
  void transfer(int initiator, int64_t bytes, bool is_write);

  // Non-blocking form of transfer(): queues the request now, in call order, and says when it
  // will have left the channel and when it will be complete. A DMA engine that streams its
  // next request while the previous one's latency elapses waits only for `sent`.
  DramTicket request(int initiator, int64_t bytes, bool is_write);

  // Time the channel would be busy moving `bytes` (no latency, no queueing).
  sc_core::sc_time occupancy(int64_t bytes) const;
  sc_core::sc_time latency() const { return latency_; }
  bool unlimited_bandwidth() const { return bytes_per_second_ <= 0; }

  // True when another initiator issued a request at or after `since`, or has one in flight:
  // the condition under which a unit must not fast-forward through identical tiles.
  bool others_active_since(int initiator, sc_core::sc_time since) const;

  int64_t bytes_read(int initiator) const { return initiators_.at(initiator).bytes_read; }
  int64_t bytes_written(int initiator) const { return initiators_.at(initiator).bytes_written; }
  int64_t total_bytes_read() const;
  int64_t total_bytes_written() const;
  sc_core::sc_time busy_time() const { return busy_time_; }

 private:
  struct InitiatorState {
    std::string name;
    int64_t bytes_read = 0;
    int64_t bytes_written = 0;
    sc_core::sc_time last_complete = sc_core::SC_ZERO_TIME;  // in flight until then
    sc_core::sc_time last_issue = sc_core::SC_ZERO_TIME;
    bool has_issued = false;
  };

  const InitiatorState& initiator_state(int initiator) const;

  double bytes_per_second_ = 0;  // min(DRAM, interconnect); <= 0 means unlimited
  sc_core::sc_time latency_;
  sc_core::sc_time channel_free_at_ = sc_core::SC_ZERO_TIME;
  sc_core::sc_time busy_time_ = sc_core::SC_ZERO_TIME;
  std::vector<InitiatorState> initiators_;
};

}  // namespace polyarch::sim
