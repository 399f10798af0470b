#include "sim/memory/dram_channel.h"

#include <algorithm>
#include <cmath>

#include "base/error.h"
#include "sim/memory/jedec_backend.h"
#include "sim/memory/tensor_allocator.h"

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
  if (dram.model == "jedec") {
    if (!dram.jedec_config) throw_runtime({}, "jedec DRAM model without a JEDEC description");
    jedec_ = std::make_unique<JedecBackend>(*dram.jedec_config, dram.check_commands);
    dram_clock_hz_ = static_cast<double>(dram.jedec_config->organization.clock_mhz) * 1e6;
    bus_bytes_per_second_ = interconnect.bandwidth_gbps * 1e9;
    interconnect_latency_ = ticks_of_seconds(static_cast<long double>(interconnect.latency_cycles) /
                                             static_cast<long double>(soc_clock_ghz) * 1e-9L);
  }
}

DramChannel::~DramChannel() = default;

int DramChannel::register_initiator(const std::string& initiator_name) {
  InitiatorState state;
  state.name = initiator_name;
  initiators_.push_back(std::move(state));
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
  return issue(initiator, bytes, is_write, nullptr);
}

DramTicket DramChannel::request_at(int initiator, AddressRange range, bool is_write) {
  return issue(initiator, range.bytes, is_write, &range);
}

void DramChannel::begin_op(int initiator, const OpRanges& ranges) {
  initiator_state(initiator);  // validates the id
  InitiatorState& state = initiators_[initiator];
  // An op that only writes reads nothing, and the reverse; an op without tensors at all (none
  // reach the simulation today) walks the first page.
  const AddressRange first_page{0, TensorAllocation::kAlignmentBytes};
  const AddressRange read_fallback = ranges.writes.empty() ? first_page : ranges.writes.front();
  const AddressRange write_fallback = ranges.reads.empty() ? first_page : ranges.reads.front();
  state.reads.reset(ranges.reads, read_fallback);
  state.writes.reset(ranges.writes, write_fallback);
}

DramTicket DramChannel::issue(int initiator, int64_t bytes, bool is_write,
                              const AddressRange* range) {
  initiator_state(initiator);  // validates the id
  if (bytes < 0) throw_runtime({}, "negative DRAM transfer size " + std::to_string(bytes));
  InitiatorState& state = initiators_[initiator];
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  DramTicket ticket;
  if (jedec_ && bytes > 0) {
    AddressStream& stream = is_write ? state.writes : state.reads;
    const std::vector<AddressRange> pieces =
        range != nullptr ? std::vector<AddressRange>{*range} : stream.take(bytes);
    ticket = jedec_ticket(state, pieces, bytes, is_write);
  } else if (jedec_) {
    ticket = {now, now};
  } else {
    // First come, first served: the request starts when every earlier one has left the channel.
    const sc_core::sc_time start = std::max(now, channel_free_at_);
    const sc_core::sc_time busy = occupancy(bytes);
    channel_free_at_ = start + busy;
    busy_time_ += busy;
    ticket = {channel_free_at_, channel_free_at_ + latency_};
  }
  state.last_issue = now;
  state.has_issued = true;
  state.last_complete = std::max(state.last_complete, ticket.complete);
  (is_write ? state.bytes_written : state.bytes_read) += bytes;
  if (jedec_) (is_write ? state.traffic.bytes_written : state.traffic.bytes_read) += bytes;
  return ticket;
}

DramTicket DramChannel::jedec_ticket(InitiatorState& state, std::span<const AddressRange> pieces,
                                     int64_t bytes, bool is_write) {
  if (!shadows_set_up_) set_up_shadows();
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  // The interconnect forwards requests first come, first served at its bandwidth; the
  // controllers see each one when it arrives and the bus stays busy for its bytes.
  sc_core::sc_time bus_done = now;
  if (bus_bytes_per_second_ > 0) {
    const sc_core::sc_time start = std::max(now, bus_free_at_);
    bus_free_at_ = start + ticks_of_seconds(static_cast<long double>(bytes) /
                                            static_cast<long double>(bus_bytes_per_second_));
    bus_done = bus_free_at_;
  }
  const int64_t arrival = dram_cycle_at_or_after(now);
  const JedecService service = jedec_->serve(pieces, is_write, arrival);
  for (size_t channel = 0; channel < service.channel_bytes.size(); ++channel) {
    add_channel_bytes(channel_window_bytes_, static_cast<int>(channel),
                      service.channel_bytes[channel], arrival, service.completion_cycle);
  }
  DramTraffic& traffic = state.traffic;
  ++traffic.requests;
  traffic.bursts += service.served.bursts;
  traffic.row_hits += service.served.row_hits;
  traffic.row_misses += service.served.row_misses;
  traffic.row_conflicts += service.served.row_conflicts;
  if (state.shadow >= 0) {
    // The same request on a DRAM that only this requester uses: the delay between the two
    // completions is what the other requesters' traffic cost it.
    const int64_t alone = shadows_[static_cast<size_t>(state.shadow)]
                              ->serve(pieces, is_write, arrival)
                              .completion_cycle;
    add_interference(state, alone, service.completion_cycle);
  }
  const sc_core::sc_time sent =
      std::max(time_of_dram_cycle(service.last_command_cycle + 1), bus_done);
  const sc_core::sc_time complete =
      std::max(time_of_dram_cycle(service.completion_cycle), bus_done) + interconnect_latency_;
  return {sent, complete};
}

void DramChannel::add_interference(InitiatorState& state, int64_t alone, int64_t completion) {
  if (completion <= alone) return;
  const sc_core::sc_time from = std::max(time_of_dram_cycle(alone), state.delayed_until);
  const sc_core::sc_time to = time_of_dram_cycle(completion);
  if (to > from) {
    state.traffic.interference_s += (to - from).to_seconds();
    state.delayed_until = to;
  }
}

DramTicket DramChannel::pim_request(int initiator, const dram::PimBlock& block) {
  initiator_state(initiator);  // validates the id
  if (!jedec_) throw_runtime({}, "PIM work on the DRAM's banks needs the jedec DRAM model");
  if (!shadows_set_up_) set_up_shadows();
  InitiatorState& state = initiators_[initiator];
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const int64_t arrival = dram_cycle_at_or_after(now);
  const dram::PimCounters before = jedec_->pim_counters();
  // Each column command's bytes go to its channel's window at the cycle it issued.
  const dram::PimInternalBytesSink internal_bytes = [this](int channel, int64_t cycle,
                                                           int64_t bytes) {
    add_channel_bytes(pim_window_bytes_, channel, bytes, cycle, cycle + 1);
  };
  const JedecService service = jedec_->serve_pim(block, arrival, internal_bytes);
  const dram::PimCounters added = jedec_->pim_counters().since(before);
  DramTraffic& traffic = state.traffic;
  ++traffic.pim_blocks;
  traffic.pim_column_commands += added.column_commands;
  traffic.pim_internal_bytes += added.internal_bytes;
  traffic.pim_mode_entries += added.mode_entries;
  if (state.shadow >= 0) {
    const int64_t alone =
        shadows_[static_cast<size_t>(state.shadow)]->serve_pim(block, arrival).completion_cycle;
    add_interference(state, alone, service.completion_cycle);
  }
  state.last_issue = now;
  state.has_issued = true;
  const DramTicket ticket{time_of_dram_cycle(service.last_command_cycle + 1),
                          time_of_dram_cycle(service.completion_cycle)};
  state.last_complete = std::max(state.last_complete, ticket.complete);
  return ticket;
}

void DramChannel::set_up_shadows() {
  shadows_set_up_ = true;
  std::vector<std::string> names;
  for (InitiatorState& state : initiators_) {
    const auto found = std::find(names.begin(), names.end(), state.name);
    state.shadow = static_cast<int>(found - names.begin());
    if (found == names.end()) names.push_back(state.name);
  }
  if (names.size() < 2) {
    // One requester alone meets no one: its interference is zero without a second DRAM.
    for (InitiatorState& state : initiators_) state.shadow = -1;
    return;
  }
  for (size_t i = 0; i < names.size(); ++i) {
    shadows_.push_back(std::make_unique<JedecBackend>(jedec_->config(), false));
  }
}

void DramChannel::add_channel_bytes(std::vector<std::vector<int64_t>>& series, int channel,
                                    int64_t bytes, int64_t first_cycle, int64_t end_cycle) {
  constexpr size_t kMaxWindows = 4096;
  if (bytes <= 0) return;
  if (channel_window_bytes_.empty()) {
    const auto channels = static_cast<size_t>(jedec_->config().organization.channels);
    channel_window_bytes_.resize(channels);
    pim_window_bytes_.resize(channels);
  }
  const int64_t last_cycle = std::max(first_cycle, end_cycle - 1);
  while (static_cast<size_t>(last_cycle / window_cycles_) >= kMaxWindows) {
    // Coarser windows: each new one holds two old ones.
    for (auto* kind : {&channel_window_bytes_, &pim_window_bytes_}) {
      for (std::vector<int64_t>& windows : *kind) {
        for (size_t i = 0; i < windows.size(); ++i) {
          if (i % 2 == 0) {
            windows[i / 2] = windows[i];
          } else {
            windows[i / 2] += windows[i];
          }
        }
        windows.resize((windows.size() + 1) / 2);
      }
    }
    window_cycles_ *= 2;
  }
  std::vector<int64_t>& windows = series[static_cast<size_t>(channel)];
  const auto last_window = static_cast<size_t>(last_cycle / window_cycles_);
  if (windows.size() <= last_window) windows.resize(last_window + 1, 0);
  // Spread evenly over the cycles [first_cycle, last_cycle], window by window.
  const int64_t span = last_cycle - first_cycle + 1;
  int64_t placed = 0;
  for (auto window = static_cast<size_t>(first_cycle / window_cycles_); window <= last_window;
       ++window) {
    const int64_t window_end = static_cast<int64_t>(window + 1) * window_cycles_;
    const int64_t upto = std::min(window_end, last_cycle + 1) - first_cycle;
    const int64_t share = window == last_window ? bytes - placed : bytes * upto / span - placed;
    windows[window] += share;
    placed += share;
  }
}

std::vector<ChannelBandwidth> DramChannel::channel_bandwidth() const {
  std::vector<ChannelBandwidth> series;
  for (size_t channel = 0; channel < channel_window_bytes_.size(); ++channel) {
    series.push_back({.channel = static_cast<int>(channel),
                      .window_s = static_cast<double>(window_cycles_) / dram_clock_hz_,
                      .bytes = channel_window_bytes_[channel],
                      .pim_internal_bytes = pim_window_bytes_[channel]});
  }
  return series;
}

int64_t DramChannel::dram_cycle_at_or_after(sc_core::sc_time time) const {
  // A time rounded to the SystemC resolution from a cycle (time_of_dram_cycle) may fall up to
  // half a tick past it: 0.01 cycle of slack maps it back to that cycle.
  const long double cycles =
      static_cast<long double>(time.to_seconds()) * static_cast<long double>(dram_clock_hz_);
  return static_cast<int64_t>(std::ceil(cycles - 0.01L));
}

sc_core::sc_time DramChannel::time_of_dram_cycle(int64_t cycle) const {
  return ticks_of_seconds(static_cast<long double>(cycle) /
                          static_cast<long double>(dram_clock_hz_));
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
