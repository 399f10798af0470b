#include "sim/memory/dram_channel.h"

#include <algorithm>
#include <cmath>

#include "base/error.h"

namespace polyarch::sim {

namespace {

// Ticks of the SystemC time resolution in `seconds`, rounded to nearest. Each request rounds
// once (at most half a tick, 0.5 ps by default), far below any DRAM timing that matters.
sc_core::sc_time ticks_of_seconds(long double seconds) {
  const long double resolution =
      static_cast<long double>(sc_core::sc_get_time_resolution().to_seconds());
  return sc_core::sc_time::from_value(static_cast<uint64_t>(std::llround(seconds / resolution)));
}

// min() of two bandwidths where <= 0 means unlimited.
double effective_bandwidth_gbps(double dram_gbps, double interconnect_gbps) {
  if (dram_gbps <= 0) return interconnect_gbps > 0 ? interconnect_gbps : 0;
  if (interconnect_gbps <= 0) return dram_gbps;
  return std::min(dram_gbps, interconnect_gbps);
}

}  // namespace

DramChannel::DramChannel(sc_core::sc_module_name name, const DramSpec& dram,
                         const InterconnectSpec& interconnect, double soc_clock_ghz)
    : sc_core::sc_module(name) {
  if (!(soc_clock_ghz > 0)) {
    throw_runtime({}, "DRAM channel needs a positive SoC clock, got " +
                          std::to_string(soc_clock_ghz) + " GHz");
  }
  if (dram.latency_ns < 0 || interconnect.latency_cycles < 0) {
    throw_runtime({}, "DRAM and interconnect latencies must not be negative");
  }
  bytes_per_second_ =
      effective_bandwidth_gbps(dram.sustained_bandwidth_gbps(), interconnect.bandwidth_gbps) * 1e9;
  // The interconnect's latency is counted in SoC cycles (arch YAML: interconnect.latency_cycles).
  const long double latency_ns = static_cast<long double>(dram.latency_ns) +
                                 static_cast<long double>(interconnect.latency_cycles) /
                                     static_cast<long double>(soc_clock_ghz);
  latency_ = ticks_of_seconds(latency_ns * 1e-9L);
}

int DramChannel::register_initiator(const std::string& initiator_name) {
  initiators_.push_back(InitiatorState{.name = initiator_name});
  return static_cast<int>(initiators_.size()) - 1;
}

const DramChannel::InitiatorState& DramChannel::initiator_state(int initiator) const {
  if (initiator < 0 || initiator >= initiator_count()) {
    throw_runtime({}, "DRAM request from unregistered initiator " + std::to_string(initiator));
  }
  return initiators_[initiator];
}

sc_core::sc_time DramChannel::occupancy(int64_t bytes) const {
  if (unlimited_bandwidth() || bytes <= 0) return sc_core::SC_ZERO_TIME;
  return ticks_of_seconds(static_cast<long double>(bytes) /
                          static_cast<long double>(bytes_per_second_));
}

DramTicket DramChannel::request(int initiator, int64_t bytes, bool is_write) {
  initiator_state(initiator);  // validates the id
  if (bytes < 0) throw_runtime({}, "negative DRAM transfer size " + std::to_string(bytes));
  InitiatorState& state = initiators_[initiator];
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  // First come, first served: the request starts when every earlier one has left the channel.
  const sc_core::sc_time start = std::max(now, channel_free_at_);
  const sc_core::sc_time busy = occupancy(bytes);
  channel_free_at_ = start + busy;
  busy_time_ += busy;
  DramTicket ticket{channel_free_at_, channel_free_at_ + latency_};
  state.last_issue = now;
  state.has_issued = true;
  state.last_complete = std::max(state.last_complete, ticket.complete);
  (is_write ? state.bytes_written : state.bytes_read) += bytes;
  return ticket;
}

void DramChannel::transfer(int initiator, int64_t bytes, bool is_write) {
  const DramTicket ticket = request(initiator, bytes, is_write);
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  if (ticket.complete > now) sc_core::wait(ticket.complete - now);
}

bool DramChannel::others_active_since(int initiator, sc_core::sc_time since) const {
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  for (int other = 0; other < initiator_count(); ++other) {
    if (other == initiator) continue;
    const InitiatorState& state = initiators_[other];
    if (!state.has_issued) continue;
    if (state.last_issue >= since || state.last_complete > now) return true;
  }
  return false;
}

int64_t DramChannel::total_bytes_read() const {
  int64_t total = 0;
  for (const InitiatorState& state : initiators_) total += state.bytes_read;
  return total;
}

int64_t DramChannel::total_bytes_written() const {
  int64_t total = 0;
  for (const InitiatorState& state : initiators_) total += state.bytes_written;
  return total;
}

}  // namespace polyarch::sim
