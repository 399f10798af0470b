#pragma once
// The PIM cost model: how an op's data is laid out over the PUs' banks (row partition: each PU
// owns whole output rows; column partition: each PU owns a slice of the reduction and partial
// sums are reduced), what crosses the external bus (the broadcast input, the results, partial
// sums) and how long the PUs stream their banks (bank_stream.h). Equations: README.md.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "archs/pim/activity.h"
#include "archs/pim/params.h"
#include "compiler/ir/op.h"

namespace polyarch::archs::pim {

// One stream of the plan as the PUs run it: every PU reads `bursts_per_pu` column accesses of
// its banks, its arithmetic taking `compute_cycles_per_burst` command-clock cycles on each.
struct PimStreamSegment {
  int64_t bursts_per_pu = 0;
  int64_t compute_cycles_per_burst = 0;
};

struct PimPlan {
  std::string kernel;      // "gemv_rows", "gemv_columns", "elementwise", ...
  int64_t dram_cycles = 0;  // command-clock cycles of the whole op (streaming + external I/O)
  int64_t stream_cycles = 0;
  std::vector<PimStreamSegment> segments;  // in order; what the simulation streams
  int64_t external_write_bytes = 0;  // host -> device: broadcast inputs
  int64_t external_read_bytes = 0;   // device -> host: results and partial sums
  int64_t internal_bytes = 0;        // read (and written) beside the banks by all PUs
  int64_t macs = 0;
  int64_t flops = 0;
  // Elements the PUs convert between the type they are stored in and the PUs' dtype, and the
  // command-clock cycles their lanes spend on it (inside stream_cycles).
  int64_t converted_elements = 0;
  int64_t conversion_cycles = 0;
  PimCommands commands;
  double row_buffer_hit_rate = 0;
  double pu_utilization = 0;  // lane operations / (PUs x lanes x PU cycles of the op)
  // "compute" when the PUs' arithmetic paces the column commands, "dram" when tCCD_L (the
  // banks' internal bandwidth) does, "io" when the external transfers take longer than streaming.
  std::string bound = "dram";
  nlohmann::ordered_json mapping = nlohmann::ordered_json::object();
};

// Ops a PIM unit takes: GEMM with at most max_batch rows, elementwise functions its PUs
// implement, softmax when they implement exp, and decode attention (at most max_batch queries
// per head).
bool pim_supports(const PimParams& params, const ir::Op& op);

// PUs convert a narrow type (fp8, int4) only in GEMVs, and an integer PU (a DPU) refuses a float
// one, which it would have to quantise; nullopt where the PUs run or convert the op's types.
std::optional<std::string> pim_type_refusal(const PimParams& params, const ir::Op& op);

// How a GEMM's weight matrix is split over the PUs (the choice plan_op makes for a GEMM).
enum class Partition { kRows, kColumns };

// `partition` forces a GEMM's split; without it the one with fewer command-clock cycles is
// chosen, rows on ties. Other ops ignore it.
PimPlan plan_op(const PimParams& params, const ir::Op& op,
                std::optional<Partition> partition = std::nullopt);

// What the plan did inside the DRAM, for the energy model.
PimActivity pim_activity(const PimPlan& plan);

}  // namespace polyarch::archs::pim
