#pragma once
// What a PIM op's plan did inside the DRAM, as its energy model prices it (energy.h): one typed
// record that the cost model writes into the op's mapping and the energy model reads back, so
// the compiler checks the names and a key the writer did not record is an error, not zero
// energy.
#include <cstdint>

#include <nlohmann/json.hpp>

#include "sim/result.h"

namespace polyarch::archs::pim {

// DRAM commands by kind, over all PUs (refreshes over all pseudo-channels).
struct PimCommands {
  int64_t activates = 0;     // ACT
  int64_t precharges = 0;    // PRE
  int64_t column_reads = 0;  // RD: the PIM column commands
  int64_t refreshes = 0;     // REF

  PimCommands& operator+=(const PimCommands& other);
  bool operator==(const PimCommands&) const = default;
};

// The row-buffer hit rate and PU utilisation are not priced; they are here because reports have
// always shown them between the commands and the bytes, and one writer keeps that order.
struct PimActivity {
  PimCommands commands;
  double row_buffer_hit_rate = 0.0;  // 1 - ACT / RD
  double pu_utilization = 0.0;
  int64_t internal_bytes = 0;  // read (and written) beside the banks
  int64_t external_bytes = 0;  // over the external bus, both ways

  bool operator==(const PimActivity&) const = default;
};

// The one writer: `commands` ({"ACT", "PRE", "RD", "REF"}), `row_buffer_hit_rate`,
// `pu_utilization`, `internal_bytes`, `external_bytes`, appended to an op's mapping.
void record_activity(const PimActivity& activity, nlohmann::ordered_json& mapping);

// The one reader; an internal error naming the op and the key when one is missing or mistyped
// (archs/mapping_reader.h).
PimActivity pim_activity_of(const sim::OpResult& op);

}  // namespace polyarch::archs::pim
