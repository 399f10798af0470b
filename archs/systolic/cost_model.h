#pragma once
// The analytical tile model of a systolic array: how an op folds onto the array, how many
// cycles each fold takes (fill, steady state, drain), which SRAM and DRAM accesses each fold
// makes. The SystemC module (module.h) executes this plan against a DRAM resource; the
// cycle-level reference (reference/pe_grid.h) checks its cycle counts. Equations: README.md.
//
// Operand view (SCALE-Sim v2's convention, from its compute/systolic_compute_*.py): a GEMM
// [M x K] * [K x N] (a convolution as its im2col GEMM) maps to spatial rows Sr, spatial
// columns Sc and temporal length T:
//   os: Sr = M, Sc = N, T = K     ws: Sr = K, Sc = N, T = M     is: Sr = K, Sc = M, T = N
// Folds iterate column folds outer, row folds inner; each fold uses the full R x C array:
//   os: cycles = T + R + C - 2            ws, is: cycles = 2R + C + T - 2
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "archs/systolic/params.h"
#include "compiler/ir/op.h"
#include "sim/pipeline/tile_plan.h"

namespace polyarch::archs::systolic {

struct OperandDims {
  int64_t spatial_rows = 0;  // Sr
  int64_t spatial_cols = 0;  // Sc
  int64_t temporal = 0;      // T
};
OperandDims operand_dims(Dataflow dataflow, int64_t m, int64_t n, int64_t k);

// Bytes one operand buffer of `kib` KiB offers a fold: half of it when double buffered (one half
// feeds the array while the other fills).
int64_t buffer_capacity_bytes(int64_t kib, bool double_buffered);

// Cycles of one fold on an R x C array, from first operand entering to last result leaving.
int64_t fold_cycles(Dataflow dataflow, int64_t array_rows, int64_t array_cols, int64_t temporal);

// One fold: its occupancy of the array and the accesses it makes.
struct FoldShape {
  int64_t rows_used = 0;  // <= array rows
  int64_t cols_used = 0;  // <= array cols
  int64_t cycles = 0;     // fold_cycles(...)
  int64_t macs = 0;       // rows_used * cols_used * T
  // SRAM accesses in elements (SCALE-Sim's demand counts: non-null requests).
  int64_t ifmap_sram_reads = 0;
  int64_t filter_sram_reads = 0;
  int64_t ofmap_sram_writes = 0;
  int64_t ofmap_sram_reads = 0;  // partial sums read back when accumulation spills
  // DRAM traffic this fold causes: operands fetched before it computes, results written after.
  int64_t dram_read_bytes = 0;
  int64_t dram_write_bytes = 0;

  bool operator==(const FoldShape&) const = default;
};

// `count` consecutive identical folds, and blocks of such runs repeated back to back (e.g. every
// middle column fold): the tile runner's compressed shape (sim/pipeline/tile_plan.h).
using FoldRun = sim::RunOf<FoldShape>;
using FoldBlock = sim::BlockOf<FoldShape>;

struct SystolicPlan {
  OperandDims dims;
  int64_t row_folds = 0;
  int64_t col_folds = 0;
  int64_t gemm_repeats = 1;       // the whole block list runs this many times (groups, batch)
  std::vector<FoldBlock> blocks;  // one GEMM's folds in execution order
  int64_t fold_count = 0;         // all folds, repeats included
  int64_t compute_cycles = 0;     // sum of fold cycles (minus 1 when scalesim_compat)
  int64_t macs = 0;
  double mapping_efficiency = 0;  // mean over folds of rows_used*cols_used / (R*C)
  int64_t ifmap_sram_reads = 0;
  int64_t filter_sram_reads = 0;
  int64_t ofmap_sram_writes = 0;
  int64_t ofmap_sram_reads = 0;
  int64_t dram_read_bytes = 0;
  int64_t dram_write_bytes = 0;
  nlohmann::ordered_json mapping;  // dataflow, Sr/Sc/T, folds, loop order, residency decisions
};

// Fills a plan's totals (fold count, cycles, MACs, accesses, traffic, mapping efficiency) from
// its blocks and gemm_repeats; `array_cells` is rows * cols.
void sum_plan_folds(SystolicPlan& plan, int64_t array_cells);

// Plans an op (Gemm or Conv2d; anything else is a bad-input error naming the op). The
// row_stationary dataflow is planned by row_stationary.h, which sizes its tiles to the DRAM
// bandwidth `dram_bytes_per_cycle` (per unit cycle; 0 = unlimited); the others ignore it.
SystolicPlan plan_op(const SystolicParams& params, const ir::Op& op,
                     double dram_bytes_per_cycle = 0.0);

// Plans one GEMM view directly (no op validation); mapping search calls it hundreds of thousands
// of times a second, so the `mapping` JSON is only built when asked for. A row_stationary unit
// runs the view as its 1x1 convolution.
SystolicPlan plan_gemm(const SystolicParams& params, const ir::GemmView& view,
                       ir::DType element_dtype, bool with_mapping_json);

}  // namespace polyarch::archs::systolic
