#pragma once
// Parameters of a `kind: simd` unit: `count` identical SIMD cores (GPU streaming
// multiprocessors, vector DSPs, CPU vector units) sharing an L2 and the SoC's DRAM. Each core
// has vector lanes, special-function lanes, a register file, a scratchpad (shared memory) and an
// optional matrix engine (tensor cores). The model's equations: archs/simd/README.md.
#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "base/key_reader.h"
#include "base/key_table.h"
#include "compiler/ir/dtype.h"
#include "compiler/ir/op.h"

namespace polyarch::archs::simd {

struct VectorParams {
  int64_t lanes = 32;         // 32-bit lanes per core: fp32 FMAs or ALU results per cycle
  int64_t sfu_lanes = 4;      // transcendental results (exp, rsqrt, tanh) per cycle per core
  int64_t registers_kib = 64;  // register file per core; bounds a GEMM tile's accumulators
  // Narrow types (16-bit, 8-bit) pack into 32-bit lanes (paired fp16/bf16 arithmetic).
  bool packed_narrow_types = true;
};

struct MatrixEngineParams {
  int64_t per_core = 0;  // engines per core (0: no matrix engine)
  // Multiply-accumulates per cycle per engine, by operand dtype. A dtype not listed runs on the
  // vector lanes.
  std::map<ir::DType, int64_t> macs_per_cycle;
  // The same engine's rate through the synchronous warp-level MMA (mma.sync), by operand dtype,
  // where it is below `macs_per_cycle`: on Hopper only the asynchronous warpgroup MMA (wgmma)
  // reaches the full rate. A kernel that issues mma.sync (FlashAttention-2) runs at this rate;
  // a dtype not listed runs at `macs_per_cycle` (Ampere's mma.sync is its full-rate path).
  std::map<ir::DType, int64_t> sync_macs_per_cycle;
  // Smallest useful M of one engine instruction: a tile's rows are padded up to it.
  int64_t min_tile_m = 16;
  // `sparse_mn: "2:4"`: the engine skips the zeros of N:M structured weights (A100/H100
  // sparse tensor cores), so a GEMM whose weights are pruned to at most sparse_n of every
  // sparse_m runs at sparse_m / sparse_n times the dense rate. 0:0 = dense only.
  int64_t sparse_n = 0;
  int64_t sparse_m = 0;
};

struct ScratchpadParams {
  int64_t kib = 64;              // per core: staging buffers for operand tiles
  int64_t bytes_per_cycle = 64;  // per core: what the engines and lanes can read from it
};

struct L2Params {
  double capacity_mib = 4;
  int64_t bytes_per_cycle = 512;  // all cores together, in the unit's clock
  int64_t hit_latency_cycles = 200;
};

struct SimdParams {
  std::string name;
  int64_t count = 1;                // identical cores
  std::optional<double> clock_ghz;  // nullopt = the SoC clock
  ir::DType dtype = ir::DType::kFp16;  // for ops that name no dtype
  VectorParams vector;
  MatrixEngineParams matrix_engine;
  ScratchpadParams scratchpad;
  L2Params l2;
  int64_t core_bytes_per_cycle = 64;  // one core's port to the L2
  double launch_overhead_ns = 0;      // per kernel (one op): dispatch and tail before it runs
  // Energy of issuing one thread instruction (one lane of a warp instruction): fetching,
  // decoding and scheduling it and delivering its operands (pJ); 0 = not priced. Energy model:
  // archs/simd/README.md, "Energy".
  double instruction_issue_pj = 0;

  // The type the unit computes `op` in: the op's own (`dtype` where it names none), except that
  // an 8- or 4-bit format runs natively only on a matrix engine rated for it; elsewhere it is
  // widened to `dtype` (fp16 where that is itself narrow), and the report marks it converted.
  ir::DType run_dtype(const ir::Op& op) const;
  // Elements of `stored` all cores' lanes convert to `run` (or back) per cycle, as they widen
  // a weight format (ir::widen_ops_per_pair lane instructions per pair of elements).
  int64_t conversions_per_cycle(ir::DType stored, ir::DType run) const;
  bool has_matrix_engine(ir::DType dtype) const {
    return matrix_engine.per_core > 0 && matrix_engine.macs_per_cycle.count(dtype) > 0;
  }
  // Matrix-engine MACs per cycle of one core for `dtype` (0 without an engine for it).
  int64_t core_matrix_macs_per_cycle(ir::DType dtype) const;
  // The same through the synchronous MMA path (matrix_engine.sync_macs_per_cycle).
  int64_t core_sync_matrix_macs_per_cycle(ir::DType dtype) const;
  // Vector-lane elements per cycle of one core for `dtype`, packing narrow types.
  int64_t core_vector_elements_per_cycle(ir::DType dtype) const;
  // One kernel launch (launch_overhead_ns) in whole cycles of `clock_ghz`.
  int64_t launch_cycles(double clock_ghz) const;
};

// The keys of a `kind: simd` unit: what parse_simd_params reads and `validate --describe simd`
// prints.
const KeyTable& simd_keys();

// Reads the keys of one `units[]` entry (name and kind already known) through simd_keys().
// Errors name the key.
SimdParams parse_simd_params(KeyReader& unit, const std::string& unit_name);

}  // namespace polyarch::archs::simd
