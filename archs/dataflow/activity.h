#pragma once
// What a dataflow op did, as its energy model prices it (energy.h): one typed record that the
// SystemC model writes into the op's mapping and the energy model reads back, so the compiler
// checks the names and a key the writer did not record is an error, not zero energy.
#include <cstdint>

#include <nlohmann/json.hpp>

#include "compiler/ir/dtype.h"
#include "sim/result.h"

namespace polyarch::archs::dataflow {

// Work one phase does: counts over all its iterations and lanes.
struct PhaseActivity {
  int64_t macs = 0;
  int64_t alu_ops = 0;      // add-class ALU ops (add, sub, max, cmp, logic, ...)
  int64_t mul_ops = 0;      // ALU multiplies
  int64_t special_ops = 0;  // div, exp, log, sqrt, rsqrt, tanh
  int64_t scratchpad_bytes = 0;
  int64_t network_bit_hops = 0;

  bool operator==(const PhaseActivity&) const = default;
};

struct DataflowActivity {
  ir::DType dtype = ir::DType::kFp32;  // the op's element type, which the counts are priced in
  PhaseActivity work;                  // every phase's together
  int64_t config_bytes = 0;            // configurations loaded (a resident one costs nothing)

  bool operator==(const DataflowActivity&) const = default;
};

// The one writer: `dtype`, then `run_counters` (what the SystemC model reports about the run:
// reconfigurations, skipped steps, ...), then `activity` with the counts, appended to an op's
// mapping in the order reports have always shown.
void record_activity(const DataflowActivity& activity, const nlohmann::ordered_json& run_counters,
                     nlohmann::ordered_json& mapping);

// The one reader; an internal error naming the op and the key when one is missing or mistyped
// (archs/mapping_reader.h).
DataflowActivity dataflow_activity_of(const sim::OpResult& op);

}  // namespace polyarch::archs::dataflow
