#include "archs/simd/params.h"

#include <algorithm>
#include <cmath>

#include "archs/common_keys.h"
#include "base/checked_math.h"
#include "base/error.h"
#include "base/key_specs.h"
#include "compiler/ir/stored_operands.h"

namespace polyarch::archs::simd {

namespace {

// Typo guards, far beyond any built chip: they keep products of counts within 64 bits.
constexpr int64_t kMaxCores = 1 << 20;
constexpr int64_t kMaxLanes = 1 << 16;
constexpr int64_t kMaxKib = int64_t{1} << 30;
constexpr int64_t kMaxBytesPerCycle = int64_t{1} << 24;
constexpr int64_t kMaxMacsPerCycle = int64_t{1} << 24;

VectorParams parse_vector(KeyReader& unit) {
  VectorParams vector;
  KeyReader reader = unit.nested("vector");
  vector.lanes = reader.read_int("lanes");
  vector.sfu_lanes = reader.read_int("sfu_lanes");
  vector.registers_kib = reader.read_int("registers_kib");
  vector.packed_narrow_types = reader.read_bool("packed_narrow_types");
  reader.finish();
  return vector;
}

// `sparse_mn: "N:M"` with 0 < N < M <= 64 and N dividing M, so the speed-up M/N is whole.
void parse_sparse_pattern(KeyReader& engine_reader, MatrixEngineParams& engine) {
  MapReader& reader = engine_reader.map_reader();
  const ConfigNode* node = reader.optional("sparse_mn");
  if (node == nullptr) {
    engine_reader.note("sparse_mn", nullptr);  // dense only
    return;
  }
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
      engine_reader.note("sparse_mn", text);
      return;
    }
  } catch (const std::exception&) {
  }
  throw_bad_input(node->where(), "matrix_engine.sparse_mn: '" + text +
                                     "' is not N:M with 0 < N < M <= 64 and N dividing M "
                                     "(e.g. \"2:4\")");
}

// One optional key per arithmetic dtype; finish() rejects others with a suggestion.
std::map<ir::DType, int64_t> parse_macs_per_cycle(KeyReader& engine_reader) {
  std::map<ir::DType, int64_t> macs_per_cycle;
  MapReader rates(engine_reader.map_reader().required("macs_per_cycle"));
  nlohmann::ordered_json described = nlohmann::ordered_json::object();
  for (const std::string& dtype_text : ir::dtype_names()) {
    if (ir::dtype_bits(*ir::parse_dtype(dtype_text)) % 8 != 0) continue;  // int4: storage only
    const int64_t macs = rates.optional_int(dtype_text, 0, 0, kMaxMacsPerCycle);
    if (macs > 0) macs_per_cycle[*ir::parse_dtype(dtype_text)] = macs;
  }
  rates.finish();
  if (macs_per_cycle.empty()) {
    throw_bad_input(rates.node().where(), "matrix_engine.macs_per_cycle names no dtype");
  }
  for (const auto& [dtype, macs] : macs_per_cycle)
    described[std::string(ir::dtype_name(dtype))] = macs;
  engine_reader.note("macs_per_cycle", std::move(described));
  return macs_per_cycle;
}

// Optional, one key per dtype the engine has a rate for, each at most that rate. Described as
// resolved: every engine dtype's synchronous rate, the full one where none is written.
std::map<ir::DType, int64_t> parse_sync_macs_per_cycle(KeyReader& engine_reader,
                                                       const MatrixEngineParams& engine) {
  std::map<ir::DType, int64_t> sync_rates;
  const ConfigNode* node = engine_reader.map_reader().optional("sync_macs_per_cycle");
  if (node != nullptr) {
    MapReader rates(*node);
    for (const auto& [dtype, full_rate] : engine.macs_per_cycle) {
      const int64_t macs = rates.optional_int(std::string(ir::dtype_name(dtype)), 0, 1, full_rate);
      if (macs > 0) sync_rates[dtype] = macs;
    }
    rates.finish();
  }
  nlohmann::ordered_json described = nlohmann::ordered_json::object();
  for (const std::string& dtype_text : ir::dtype_names()) {
    const auto full = engine.macs_per_cycle.find(*ir::parse_dtype(dtype_text));
    if (full == engine.macs_per_cycle.end()) continue;
    const auto given = sync_rates.find(full->first);
    described[dtype_text] = given == sync_rates.end() ? full->second : given->second;
  }
  engine_reader.note("sync_macs_per_cycle", std::move(described));
  return sync_rates;
}

MatrixEngineParams parse_matrix_engine(KeyReader& unit) {
  MatrixEngineParams engine;
  const bool written = unit.map_reader().has("matrix_engine");
  KeyReader reader = unit.nested_or_defaults("matrix_engine");
  if (!written) {
    // No engine: its keys are described at the values of a core without one.
    reader.note("per_core", engine.per_core);
    reader.note("min_tile_m", engine.min_tile_m);
    reader.note("macs_per_cycle", nlohmann::ordered_json::object());
    reader.note("sync_macs_per_cycle", nlohmann::ordered_json::object());
    reader.note("sparse_mn", nullptr);
    return engine;
  }
  engine.per_core = reader.read_int("per_core");
  engine.min_tile_m = reader.read_int("min_tile_m");
  engine.macs_per_cycle = parse_macs_per_cycle(reader);
  engine.sync_macs_per_cycle = parse_sync_macs_per_cycle(reader, engine);
  parse_sparse_pattern(reader, engine);
  reader.finish();
  return engine;
}

ScratchpadParams parse_scratchpad(KeyReader& unit) {
  ScratchpadParams scratchpad;
  KeyReader reader = unit.nested("scratchpad");
  scratchpad.kib = reader.read_int("kib");
  scratchpad.bytes_per_cycle = reader.read_int("bytes_per_cycle");
  reader.finish();
  return scratchpad;
}

L2Params parse_l2(KeyReader& unit) {
  L2Params l2;
  KeyReader reader = unit.nested("l2");
  l2.capacity_mib = reader.read_number("capacity_mib");
  l2.bytes_per_cycle = reader.read_int("bytes_per_cycle");
  l2.hit_latency_cycles = reader.read_int("hit_latency_cycles");
  reader.finish();
  return l2;
}

}  // namespace

ir::DType SimdParams::run_dtype(const ir::Op& op) const {
  const ir::DType given = op.dtype.value_or(dtype);
  if (!ir::is_narrow(given)) return given;
  const bool matrix = op.kind() == ir::OpKind::kGemm || op.kind() == ir::OpKind::kConv2d ||
                      op.kind() == ir::OpKind::kAttention;
  if (matrix && has_matrix_engine(given)) return given;
  return ir::is_narrow(dtype) ? ir::DType::kFp16 : dtype;
}

int64_t SimdParams::conversions_per_cycle(ir::DType stored, ir::DType run) const {
  const int64_t instructions_per_pair = std::max<int64_t>(1, ir::widen_ops_per_pair(stored, run));
  return checked_mul(count, vector.lanes, "conversion lanes") * 2 / instructions_per_pair;
}

int64_t SimdParams::core_matrix_macs_per_cycle(ir::DType operand_dtype) const {
  auto found = matrix_engine.macs_per_cycle.find(operand_dtype);
  if (matrix_engine.per_core == 0 || found == matrix_engine.macs_per_cycle.end()) return 0;
  return matrix_engine.per_core * found->second;
}

int64_t SimdParams::core_sync_matrix_macs_per_cycle(ir::DType operand_dtype) const {
  auto found = matrix_engine.sync_macs_per_cycle.find(operand_dtype);
  if (found == matrix_engine.sync_macs_per_cycle.end()) {
    return core_matrix_macs_per_cycle(operand_dtype);
  }
  return matrix_engine.per_core * found->second;
}

int64_t SimdParams::launch_cycles(double clock_ghz) const {
  return static_cast<int64_t>(std::ceil(launch_overhead_ns * clock_ghz));
}

int64_t SimdParams::core_vector_elements_per_cycle(ir::DType operand_dtype) const {
  const int64_t bytes = ir::dtype_bytes(operand_dtype);
  if (!vector.packed_narrow_types || bytes >= 4) return vector.lanes;
  return vector.lanes * (4 / bytes);
}

const KeyTable& simd_keys() {
  static const KeyTable table = [] {
    const SimdParams params;
    return unit_key_table(
        "simd", "identical SIMD cores (vector lanes, optional matrix engines) sharing an L2",
        {int_key("count", "cores", kRequired, 1, kMaxCores, "identical cores"),
         clock_key(),
         dtype_key("dtype", params.dtype, "operand type of ops that name none"),
         map_key("vector", kRequired, "one core's vector lanes"),
         int_key("vector.lanes", "lanes", kRequired, 1, kMaxLanes,
                 "32-bit lanes: fp32 FMAs or ALU results per cycle"),
         int_key("vector.sfu_lanes", "lanes", default_text(params.vector.sfu_lanes), 1, kMaxLanes,
                 "transcendental results (exp, rsqrt, tanh) per cycle"),
         int_key("vector.registers_kib", "KiB", default_text(params.vector.registers_kib), 1,
                 kMaxKib, "register file; bounds a GEMM tile's accumulators"),
         bool_key("vector.packed_narrow_types", params.vector.packed_narrow_types,
                  "16-bit and 8-bit types pack 2 and 4 per lane"),
         map_key("matrix_engine", "none", "one core's matrix engines (tensor cores)"),
         int_key("matrix_engine.per_core", "engines", kRequired, 1, kMaxLanes, "engines per core"),
         int_key("matrix_engine.min_tile_m", "rows", default_text(params.matrix_engine.min_tile_m),
                 1, kMaxLanes, "smallest useful M of one instruction; tiles pad up to it"),
         map_key("matrix_engine.macs_per_cycle", kRequired,
                 "MACs per cycle per engine by operand dtype ({fp16: 512}); others use the lanes"),
         map_key("matrix_engine.sync_macs_per_cycle", "macs_per_cycle",
                 "MACs per cycle per engine through the synchronous warp MMA (mma.sync) by "
                 "dtype, at most macs_per_cycle ({bf16: 339}); FlashAttention-2 runs at it"),
         string_key("matrix_engine.sparse_mn", "none",
                    "N:M structured sparsity the engine skips (\"2:4\": pruned weights at 2x)"),
         map_key("scratchpad", kRequired, "one core's scratchpad (shared memory)"),
         int_key("scratchpad.kib", "KiB", kRequired, 1, kMaxKib, "staging buffers for tiles"),
         int_key("scratchpad.bytes_per_cycle", "B/cycle", kRequired, 1, kMaxBytesPerCycle,
                 "what the engines and lanes read from it"),
         map_key("l2", kRequired, "the L2 all cores share"),
         number_key("l2.capacity_mib", "MiB", kRequired, 0.0, 1e6, "capacity"),
         int_key("l2.bytes_per_cycle", "B/cycle", kRequired, 1, kMaxBytesPerCycle,
                 "all cores together, in the unit's clock"),
         int_key("l2.hit_latency_cycles", "cycles", default_text(params.l2.hit_latency_cycles), 0,
                 int64_t{1} << 20, "latency of an L2 hit"),
         int_key("core_bytes_per_cycle", "B/cycle", kRequired, 1, kMaxBytesPerCycle,
                 "one core's port to the L2"),
         number_key("launch_overhead_ns", "ns", default_text(params.launch_overhead_ns), 0.0, 1e9,
                    "per kernel (one op): dispatch and tail before it runs"),
         number_key("instruction_issue_pj", "pJ", default_text(params.instruction_issue_pj), 0.0,
                    1e4,
                    "energy per thread instruction (one lane of a warp instruction): fetch, "
                    "decode, scheduling, operand delivery; 0 = not priced")});
  }();
  return table;
}

SimdParams parse_simd_params(KeyReader& unit, const std::string& unit_name) {
  SimdParams params;
  params.name = unit_name;
  params.count = unit.read_int("count");
  params.clock_ghz = unit.read_optional_number("clock_ghz");
  params.dtype = read_dtype(unit, "dtype");
  params.vector = parse_vector(unit);
  params.matrix_engine = parse_matrix_engine(unit);
  params.scratchpad = parse_scratchpad(unit);
  params.l2 = parse_l2(unit);
  params.core_bytes_per_cycle = unit.read_int("core_bytes_per_cycle");
  params.launch_overhead_ns = unit.read_number("launch_overhead_ns");
  params.instruction_issue_pj = unit.read_number("instruction_issue_pj");
  return params;
}

}  // namespace polyarch::archs::simd
