#include "archs/simd/params.h"

#include "archs/common_keys.h"
#include "base/error.h"

namespace polyarch::archs::simd {

namespace {

// Typo guards, far beyond any built chip: they keep products of counts within 64 bits.
constexpr int64_t kMaxCores = 1 << 20;
constexpr int64_t kMaxLanes = 1 << 16;
constexpr int64_t kMaxKib = int64_t{1} << 30;
constexpr int64_t kMaxBytesPerCycle = int64_t{1} << 24;
constexpr int64_t kMaxMacsPerCycle = int64_t{1} << 24;

VectorParams parse_vector(MapReader& unit_reader) {
  VectorParams vector;
  MapReader reader(unit_reader.required("vector"));
  vector.lanes = reader.required_int("lanes", 1, kMaxLanes);
  vector.sfu_lanes = reader.optional_int("sfu_lanes", vector.sfu_lanes, 1, kMaxLanes);
  vector.registers_kib = reader.optional_int("registers_kib", vector.registers_kib, 1, kMaxKib);
  vector.packed_narrow_types =
      reader.optional_bool("packed_narrow_types", vector.packed_narrow_types);
  reader.finish();
  return vector;
}

// `sparse_mn: "N:M"` with 0 < N < M <= 64 and N dividing M, so the speed-up M/N is whole.
void parse_sparse_pattern(MapReader& reader, MatrixEngineParams& engine) {
  const ConfigNode* node = reader.optional("sparse_mn");
  if (node == nullptr) return;
  const std::string text = reader.required_string("sparse_mn");
  const std::size_t colon = text.find(':');
  try {
    std::size_t n_end = 0;
    std::size_t m_end = 0;
    if (colon != std::string::npos) {
      engine.sparse_n = std::stoll(text.substr(0, colon), &n_end);
      engine.sparse_m = std::stoll(text.substr(colon + 1), &m_end);
    }
    if (colon != std::string::npos && n_end == colon && m_end == text.size() - colon - 1 &&
        engine.sparse_n > 0 && engine.sparse_n < engine.sparse_m && engine.sparse_m <= 64 &&
        engine.sparse_m % engine.sparse_n == 0) {
      return;
    }
  } catch (const std::exception&) {
  }
  throw_bad_input(node->where(), "matrix_engine.sparse_mn: '" + text +
                                     "' is not N:M with 0 < N < M <= 64 and N dividing M "
                                     "(e.g. \"2:4\")");
}

MatrixEngineParams parse_matrix_engine(MapReader& unit_reader) {
  MatrixEngineParams engine;
  const ConfigNode* node = unit_reader.optional("matrix_engine");
  if (node == nullptr) return engine;
  MapReader reader(*node);
  engine.per_core = reader.required_int("per_core", 1, kMaxLanes);
  engine.min_tile_m = reader.optional_int("min_tile_m", engine.min_tile_m, 1, kMaxLanes);
  // One optional key per arithmetic dtype; finish() rejects others with a suggestion.
  MapReader rates(reader.required("macs_per_cycle"));
  for (const std::string& dtype_text : ir::dtype_names()) {
    const int64_t macs = rates.optional_int(dtype_text, 0, 0, kMaxMacsPerCycle);
    if (macs > 0) engine.macs_per_cycle[*ir::parse_dtype(dtype_text)] = macs;
  }
  rates.finish();
  if (engine.macs_per_cycle.empty()) {
    throw_bad_input(rates.node().where(), "matrix_engine.macs_per_cycle names no dtype");
  }
  parse_sparse_pattern(reader, engine);
  reader.finish();
  return engine;
}

ScratchpadParams parse_scratchpad(MapReader& unit_reader) {
  ScratchpadParams scratchpad;
  MapReader reader(unit_reader.required("scratchpad"));
  scratchpad.kib = reader.required_int("kib", 1, kMaxKib);
  scratchpad.bytes_per_cycle = reader.required_int("bytes_per_cycle", 1, kMaxBytesPerCycle);
  reader.finish();
  return scratchpad;
}

L2Params parse_l2(MapReader& unit_reader) {
  L2Params l2;
  MapReader reader(unit_reader.required("l2"));
  l2.capacity_mib = reader.required_double("capacity_mib", 0.0, 1e6);
  l2.bytes_per_cycle = reader.required_int("bytes_per_cycle", 1, kMaxBytesPerCycle);
  l2.hit_latency_cycles = reader.optional_int("hit_latency_cycles", l2.hit_latency_cycles, 0,
                                              int64_t{1} << 20);
  reader.finish();
  return l2;
}

}  // namespace

int64_t SimdParams::core_matrix_macs_per_cycle(ir::DType operand_dtype) const {
  auto found = matrix_engine.macs_per_cycle.find(operand_dtype);
  if (matrix_engine.per_core == 0 || found == matrix_engine.macs_per_cycle.end()) return 0;
  return matrix_engine.per_core * found->second;
}

int64_t SimdParams::core_vector_elements_per_cycle(ir::DType operand_dtype) const {
  const int64_t bytes = ir::dtype_bytes(operand_dtype);
  if (!vector.packed_narrow_types || bytes >= 4) return vector.lanes;
  return vector.lanes * (4 / bytes);
}

SimdParams parse_simd_params(MapReader& unit_reader, const std::string& unit_name) {
  SimdParams params;
  params.name = unit_name;
  params.count = unit_reader.required_int("count", 1, kMaxCores);
  params.clock_ghz = optional_clock_key(unit_reader);
  params.dtype = optional_dtype_key(unit_reader, "dtype", params.dtype);
  params.vector = parse_vector(unit_reader);
  params.matrix_engine = parse_matrix_engine(unit_reader);
  params.scratchpad = parse_scratchpad(unit_reader);
  params.l2 = parse_l2(unit_reader);
  params.core_bytes_per_cycle =
      unit_reader.required_int("core_bytes_per_cycle", 1, kMaxBytesPerCycle);
  params.launch_overhead_ns =
      unit_reader.optional_double("launch_overhead_ns", params.launch_overhead_ns, 0.0, 1e9);
  return params;
}

}  // namespace polyarch::archs::simd
