#pragma once
// What a dependency between ops on different units costs (mapping/partition/list_scheduler.h).
//
// The unit models read every op's inputs from DRAM and write its outputs back (their
// dram_bytes_read / dram_bytes_written), over the one DRAM channel all units share. So where the
// units share that DRAM (`interconnect.transfers: shared_dram`, the default), the bytes a
// consumer on another unit reads are already in both ops' times and traffic: the dependency adds
// only the hand-over (the interconnect's latency_cycles, the producer's completion signalled to
// the consumer). Where every unit has its own memory (`transfers: copy`, e.g. accelerators on a
// host link), the producer's result must also be copied into the consumer's memory over the
// interconnect: hand-over + bytes / bandwidth. Ops on the same unit hand over nothing either way.
#include <cstdint>
#include <string>
#include <string_view>

#include "compiler/ir/graph.h"
#include "mapping/program/program.h"

namespace polyarch::mapping {

enum class TransferPath { kSharedDram, kCopy };
std::string_view transfer_path_name(TransferPath path);  // "shared_dram", "copy"

struct TransferModel {
  TransferPath path = TransferPath::kSharedDram;
  double hand_over_s = 0.0;       // every cross-unit dependency
  double bytes_per_second = 0.0;  // the copy's bandwidth (kCopy); 0 = unlimited

  // Seconds a consumer on another unit waits after its producer finished, for `bytes` of the
  // producer's outputs it reads.
  double cross_unit_seconds(int64_t bytes) const;
  // The part of it that moves bytes (0 on shared DRAM).
  double copy_seconds(int64_t bytes) const;
};

// Bytes of the tensors `producer` writes that `consumer` reads (a tensor of unknown shape counts
// 0).
int64_t dependency_bytes(const ir::Graph& graph, ir::NodeId producer, ir::NodeId consumer);

// Totals over the dependencies that crossed units in a schedule.
struct TransferTotals {
  int64_t count = 0;          // cross-unit data dependencies
  int64_t bytes = 0;          // tensor bytes they carried
  double seconds = 0.0;       // their hand-over and copy time, summed (not all on the path)
  double copy_seconds = 0.0;  // of which moving bytes
};

// Sets the delay of every data dependency of an assigned program (the first-fit partitioner's;
// the list scheduler sets its own) and returns their totals.
TransferTotals apply_transfers(const ir::Graph& graph, Program& program,
                               const TransferModel& transfer);

}  // namespace polyarch::mapping
