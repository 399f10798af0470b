#pragma once
// DRAM as a shared SystemC resource: one queue in front of a channel of fixed bandwidth, plus
// the on-chip interconnect in front of it. Requests are served first come, first served; a
// request occupies the channel for bytes / bandwidth and completes `latency` after its last
// byte left the channel, so latency overlaps with later requests while bandwidth does not.
// Contention between units emerges from the shared queue.
//
// With a JEDEC description (DramSpec::model "jedec") the same requests go to the cycle-level
// controllers instead (jedec_backend.h): each request takes its bytes from its initiator's
// address stream for the op in progress (address_stream.h; begin_op sets it from the tensor
// allocation) or from an explicit range (request_at), and its ticket says when the controllers
// issued its last column command (`sent`) and when its last data beat arrived (`complete`).
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <systemc>
#include <vector>

#include "sim/memory/address_range.h"
#include "sim/memory/address_stream.h"
#include "sim/memory/dram/pim_sequencer.h"
#include "sim/memory/dram_spec.h"
#include "sim/memory/dram_traffic.h"

namespace polyarch::sim {

class JedecBackend;

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
  ~DramChannel() override;  // defined where JedecBackend is complete

  // Each requester registers once at elaboration; the id tags its traffic.
  int register_initiator(const std::string& initiator_name);
  int initiator_count() const { return static_cast<int>(initiators_.size()); }

  // Blocking; call from an SC_THREAD. Returns when the transfer has completed.
  void transfer(int initiator, int64_t bytes, bool is_write);

  // Non-blocking form of transfer(): queues the request now, in call order, and says when it
  // will have left the channel and when it will be complete. A DMA engine that streams its
  // next request while the previous one's latency elapses waits only for `sent`.
  DramTicket request(int initiator, int64_t bytes, bool is_write);
  // request() at an explicit address range (the simple backend ignores the address).
  DramTicket request_at(int initiator, AddressRange range, bool is_write);

  // jedec only: PIM work on the DRAM's own banks (dram/pim_sequencer.h), the same block on every
  // pseudo-channel, queued behind the requests issued before it. `sent`: its last column
  // command left the command bus (the next block may follow); `complete`: its last burst was
  // computed on.
  DramTicket pim_request(int initiator, const dram::PimBlock& block);

  // The address ranges an initiator's requests walk from now on (its next op's operands and
  // results); the jedec backend takes each request's addresses from them.
  void begin_op(int initiator, const OpRanges& ranges);

  // The cycle-level backend; nullptr for the simple one.
  const JedecBackend* jedec() const { return jedec_.get(); }

  // Time the channel would be busy moving `bytes` (no latency, no queueing).
  sc_core::sc_time occupancy(int64_t bytes) const;
  sc_core::sc_time latency() const { return latency_; }
  bool unlimited_bandwidth() const { return bytes_per_second_ <= 0; }

  // True when another initiator issued a request at or after `since`, or has one in flight:
  // the condition under which a unit must not fast-forward through identical tiles.
  bool others_active_since(int initiator, sc_core::sc_time since) const;

  // jedec only (zero with the simple queue): what the initiator's requests met so far. Where
  // requesters of more than one name share the DRAM, each name's requests are also served on
  // a DRAM of its own (a shadow of the same configuration) to tell how much later the shared
  // one delivered them: DramTraffic::interference_s.
  const DramTraffic& traffic(int initiator) const { return initiator_state(initiator).traffic; }
  // jedec only: the bytes each DRAM channel moved, per window of time (empty with the queue).
  std::vector<ChannelBandwidth> channel_bandwidth() const;

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
    AddressStream reads;
    AddressStream writes;
    DramTraffic traffic;                                     // jedec only
    int shadow = -1;                                         // index into shadows_
    sc_core::sc_time delayed_until = sc_core::SC_ZERO_TIME;  // interference counted up to here
  };

  const InitiatorState& initiator_state(int initiator) const;
  DramTicket issue(int initiator, int64_t bytes, bool is_write, const AddressRange* range);
  // Counts a request's interference: how much later than `alone` it completed.
  void add_interference(InitiatorState& state, int64_t alone, int64_t completion);
  // The jedec backend's timing of a request whose pieces are `pieces`.
  DramTicket jedec_ticket(InitiatorState& state, std::span<const AddressRange> pieces,
                          int64_t bytes, bool is_write);
  // Gives every requester name its shadow DRAM once more than one name has registered.
  void set_up_shadows();
  // Adds `bytes` served from `first_cycle` to `end_cycle` to a channel's windows of `series`
  // (channel_window_bytes_ or pim_window_bytes_).
  void add_channel_bytes(std::vector<std::vector<int64_t>>& series, int channel, int64_t bytes,
                         int64_t first_cycle, int64_t end_cycle);
  int64_t dram_cycle_at_or_after(sc_core::sc_time time) const;
  sc_core::sc_time time_of_dram_cycle(int64_t cycle) const;

  double bytes_per_second_ = 0;  // min(DRAM, interconnect); <= 0 means unlimited
  sc_core::sc_time latency_;
  sc_core::sc_time channel_free_at_ = sc_core::SC_ZERO_TIME;
  sc_core::sc_time busy_time_ = sc_core::SC_ZERO_TIME;
  std::vector<InitiatorState> initiators_;

  // jedec only.
  std::unique_ptr<JedecBackend> jedec_;
  double dram_clock_hz_ = 0;
  double bus_bytes_per_second_ = 0;  // the interconnect in front of the controllers; <= 0: none
  sc_core::sc_time bus_free_at_ = sc_core::SC_ZERO_TIME;
  sc_core::sc_time interconnect_latency_;
  std::vector<std::unique_ptr<JedecBackend>> shadows_;
  bool shadows_set_up_ = false;
  // Bytes per DRAM channel per window of window_cycles_ DRAM cycles, on the data bus and
  // between banks and PUs (PIM column commands); the window doubles (and neighbours merge, in
  // both) whenever a channel's list would pass kMaxWindows.
  std::vector<std::vector<int64_t>> channel_window_bytes_;
  std::vector<std::vector<int64_t>> pim_window_bytes_;
  int64_t window_cycles_ = 1024;
};

}  // namespace polyarch::sim
