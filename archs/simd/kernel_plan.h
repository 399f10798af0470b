#pragma once
// How a simd unit runs one op: a kernel as a sequence of steps. A step is one pipeline stage of
// all active cores together (one K iteration of a wave of GEMM tiles, one KV block of a wave of
// attention tiles, one chunk of a streaming kernel): its cycles with operands on chip, and the
// DRAM bytes it reads before and writes after. The SystemC model (module.h) streams the steps
// against the shared DRAM with double buffering; cost_model.h estimates the same analytically.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "compiler/ir/dtype.h"
#include "sim/pipeline/tile_plan.h"

namespace polyarch::archs::simd {

// Bytes of one accumulator (fp32 / int32 partial sums) in the register file of a matrix engine.
inline constexpr int64_t kAccumulatorBytes = 4;

// What limits an op: the one ceiling the kernel runs into. `kMatrix`/`kVector`/`kSfu` are
// compute (matrix engine, vector lanes, special-function lanes), then the on-chip memories,
// DRAM, and fixed latencies (launch, pipeline fill) for kernels too small to reach any other.
enum class Bound { kMatrix, kVector, kSfu, kScratchpad, kCorePort, kL2, kDram, kLatency };
std::string_view bound_name(Bound bound);  // "matrix", "vector", ... "dram", "latency"
// The coarse class the roofline and reports use: "compute", "l2", "dram", "latency" (the
// scratchpad and core port count as "l2": on-chip bandwidth).
std::string_view bound_class(Bound bound);

struct KernelStep {
  int64_t cycles = 0;
  int64_t dram_read_bytes = 0;
  int64_t dram_write_bytes = 0;
  Bound bound = Bound::kMatrix;  // what sets `cycles`
};

// `count` identical consecutive steps, and blocks of such runs repeated back to back (e.g. every
// full wave of tiles): the tile runner's compressed shape (sim/pipeline/tile_plan.h).
using StepRun = sim::RunOf<KernelStep>;
using StepBlock = sim::BlockOf<KernelStep>;

struct KernelPlan {
  std::string kernel;             // "tiled_gemm", "flash_attention", "streaming", ...
  std::vector<StepBlock> blocks;  // in execution order
  int64_t launch_cycles = 0;  // before the first step
  // Steps whose operands may be in flight at once (staging buffers): with few slots, DRAM
  // latency rather than bandwidth limits small steps (Little's law).
  int64_t staging_slots = 2;
  int64_t macs = 0;
  int64_t flops = 0;
  int64_t l2_bytes = 0;           // moved between L2 and the cores
  int64_t dram_read_bytes = 0;    // sum over steps
  int64_t dram_write_bytes = 0;   // sum over steps
  int64_t compute_cycles = 0;     // launch + sum of step cycles: the time with ideal DRAM
  double peak_flops_per_cycle = 0;  // the compute ceiling this op's kernel can use
  double mapping_efficiency = 0;    // useful / issued work of the chosen tiling (padding, waves)
  nlohmann::ordered_json mapping = nlohmann::ordered_json::object();
  // Activity over the whole kernel, for the energy model (README.md "Energy"). The mappers fill
  // it; steps carry only cycles and DRAM bytes.
  std::map<ir::DType, int64_t> matrix_macs;  // on the matrix engines, by operand dtype
  std::map<ir::DType, int64_t> vector_ops;   // lane element operations, by element dtype
  int64_t sfu_ops = 0;                       // special-function results
  int64_t scratchpad_bytes = 0;              // staged through the scratchpad (written, then read)

  // Appends a block of `repeat` iterations of `runs` and updates the totals.
  void add_block(std::vector<StepRun> runs, int64_t repeat);
  // Adds another kernel's activity (a part of this one: a combine pass, an unfused stage).
  void add_activity(const KernelPlan& part);
  int64_t step_count() const;
};

// The plan's time in cycles with DRAM at `dram_bytes_per_cycle` (<= 0: unlimited) and
// `dram_latency_cycles` per request: the launch, the first step's fetch, then each step taking
// the longest of its cycles, the DRAM time of the traffic overlapping it (the next step's reads
// and the previous step's writes) and (fetch + latency + cycles) / staging_slots, and the last
// write. What the SystemC model reproduces without contention.
int64_t estimate_cycles(const KernelPlan& plan, double dram_bytes_per_cycle,
                        int64_t dram_latency_cycles);

}  // namespace polyarch::archs::simd
