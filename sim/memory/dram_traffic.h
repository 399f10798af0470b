#pragma once
// What a requester's DRAM traffic met on the jedec backend: its bytes and bursts, how the banks
// found each burst's row (hit, miss, conflict), and the time other requesters' traffic cost it.
// Plain counters, SystemC-free: a run's MemoryResult carries them per unit, per op and, as
// bytes over time, per DRAM channel.
#include <cstdint>
#include <string>
#include <vector>

namespace polyarch::sim {

struct DramTraffic {
  int64_t requests = 0;
  int64_t bytes_read = 0;
  int64_t bytes_written = 0;
  int64_t bursts = 0;  // bursts the controllers moved for it (whole bursts: >= bytes / 64)
  int64_t row_hits = 0;
  int64_t row_misses = 0;
  int64_t row_conflicts = 0;
  // PIM work on the banks (dram/pim_sequencer.h): blocks served, column commands issued (in
  // all-bank mode one drives every PU of a pseudo-channel), the bytes they moved between banks
  // and PUs (never on the data bus, so not in bytes_read) and the device's entries into PIM
  // mode it caused (exits come with the host traffic that needs them).
  int64_t pim_blocks = 0;
  int64_t pim_column_commands = 0;
  int64_t pim_internal_bytes = 0;
  int64_t pim_mode_entries = 0;
  // Interference: how much later its requests' last data arrived than it would have on the
  // same DRAM serving only this requester's requests (the same requests, issued at the same
  // times), counted as the union of those delays in time (overlapping requests count once).
  double interference_s = 0;

  DramTraffic& operator+=(const DramTraffic& other) {
    requests += other.requests;
    bytes_read += other.bytes_read;
    bytes_written += other.bytes_written;
    bursts += other.bursts;
    row_hits += other.row_hits;
    row_misses += other.row_misses;
    row_conflicts += other.row_conflicts;
    pim_blocks += other.pim_blocks;
    pim_column_commands += other.pim_column_commands;
    pim_internal_bytes += other.pim_internal_bytes;
    pim_mode_entries += other.pim_mode_entries;
    interference_s += other.interference_s;
    return *this;
  }
  // What happened between two readings of one requester's counters.
  DramTraffic since(const DramTraffic& earlier) const {
    DramTraffic delta = *this;
    delta.requests -= earlier.requests;
    delta.bytes_read -= earlier.bytes_read;
    delta.bytes_written -= earlier.bytes_written;
    delta.bursts -= earlier.bursts;
    delta.row_hits -= earlier.row_hits;
    delta.row_misses -= earlier.row_misses;
    delta.row_conflicts -= earlier.row_conflicts;
    delta.pim_blocks -= earlier.pim_blocks;
    delta.pim_column_commands -= earlier.pim_column_commands;
    delta.pim_internal_bytes -= earlier.pim_internal_bytes;
    delta.pim_mode_entries -= earlier.pim_mode_entries;
    delta.interference_s -= earlier.interference_s;
    return delta;
  }
};

// One unit's or one op's traffic, and how long it was busy (its ops' latency), over which
// its achieved bandwidth is counted.
struct NamedDramTraffic {
  std::string name;  // the unit, or the op (as ops[].name)
  std::string unit;  // the op's unit; the unit itself for a unit
  double busy_s = 0;
  DramTraffic traffic;
};

// Bytes that crossed one DRAM channel's data bus in consecutive windows of `window_s`, the
// first starting at time 0 (a request's bytes spread evenly over the time it was served), and
// in the same windows the bytes PIM column commands moved between the channel's banks and PUs
// (each command's in the window of its cycle; empty where no PIM work reached the channel).
struct ChannelBandwidth {
  int channel = 0;
  double window_s = 0;
  std::vector<int64_t> bytes;
  std::vector<int64_t> pim_internal_bytes;
};

}  // namespace polyarch::sim
