#pragma once
// What a mimd op did beyond its MACs and DRAM bytes, as its energy model prices it (energy.h):
// one typed record that the SystemC model writes into the op's mapping and the energy model
// reads back, so the compiler checks the names and a key the writer did not record is an error,
// not zero energy.
#include <cstdint>

#include <nlohmann/json.hpp>

#include "sim/result.h"

namespace polyarch::archs::mimd {

struct MimdActivity {
  int64_t flops = 0;  // every element operation; a MAC counts two
  // Bytes x hops over the NoC's links: an integer count from the SystemC model, a mean (hence
  // a fraction) in the mapping space's estimate.
  double noc_link_bytes = 0.0;

  bool operator==(const MimdActivity&) const = default;
};

// The one writer: `noc_link_bytes` and `activity` (the FLOPs), appended to an op's mapping.
void record_activity(const MimdActivity& activity, nlohmann::ordered_json& mapping);

// The one reader; an internal error naming the op and the key when one is missing or mistyped
// (archs/mapping_reader.h).
MimdActivity mimd_activity_of(const sim::OpResult& op);

}  // namespace polyarch::archs::mimd
