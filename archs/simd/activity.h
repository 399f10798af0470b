#pragma once
// What a simd op computed, as its energy model prices it (energy.h): one typed record that the
// SystemC model writes into the op's mapping and the energy model reads back, so the compiler
// checks the names and a key the writer did not record is an error, not zero energy. The
// memories' bytes travel in the op's typed `sram` (plan_activity.h).
#include <cstdint>
#include <map>

#include <nlohmann/json.hpp>

#include "compiler/ir/dtype.h"
#include "sim/result.h"

namespace polyarch::archs::simd {

struct SimdActivity {
  std::map<ir::DType, int64_t> matrix_macs;  // on the matrix engines, by operand dtype
  std::map<ir::DType, int64_t> vector_ops;   // lane element operations, by element dtype
  int64_t sfu_ops = 0;                       // special-function results
  // Thread instructions issued (one lane of a warp instruction each): lane arithmetic, SFU,
  // matrix-engine and L2 load/store instructions (plan_activity.h says how they are counted).
  int64_t thread_instructions = 0;

  bool operator==(const SimdActivity&) const = default;
};

// The one writer: `activity` ({"matrix_macs": {"bf16": n, ...}, "vector_ops": {...},
// "sfu_ops": n, "thread_instructions": n}), appended to an op's mapping.
void record_activity(const SimdActivity& activity, nlohmann::ordered_json& mapping);

// The one reader; an internal error naming the op and the key when one is missing or mistyped,
// or a count names no dtype (archs/mapping_reader.h).
SimdActivity simd_activity_of(const sim::OpResult& op);

}  // namespace polyarch::archs::simd
