#pragma once
// What a crossbar op's plan did in the arrays, as its energy model prices it (energy.h): one
// typed record that the cost model writes into the op's mapping and the energy model reads
// back, so the compiler checks the names and a key the writer did not record is an error, not
// zero energy.
#include <cstdint>

#include <nlohmann/json.hpp>

#include "sim/result.h"

namespace polyarch::archs::crossbar {

struct CrossbarActivity {
  int64_t adc_conversions = 0;
  int64_t dac_drives = 0;
  int64_t cell_reads = 0;          // cells read, once per input bit-slice
  int64_t cells_reprogrammed = 0;  // when the weights do not fit (endurance)

  bool operator==(const CrossbarActivity&) const = default;
};

// The one writer: the four counts under their own names, appended to an op's mapping.
void record_activity(const CrossbarActivity& activity, nlohmann::ordered_json& mapping);

// The one reader; an internal error naming the op and the key when one is missing or mistyped
// (archs/mapping_reader.h).
CrossbarActivity crossbar_activity_of(const sim::OpResult& op);

}  // namespace polyarch::archs::crossbar
