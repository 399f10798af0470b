#pragma once
// Parameters of a `kind: systolic` unit, parsed and validated from arch YAML.
#include <cstdint>
#include <optional>
#include <string>

#include "base/key_reader.h"
#include "base/key_table.h"
#include "compiler/ir/dtype.h"

namespace polyarch::archs::systolic {

// kRowStationary is Eyeriss's dataflow (Chen, Emer, Sze, ISCA 2016): each PE runs 1-D row
// convolutions; planned by row_stationary.h rather than the GEMM fold model.
enum class Dataflow { kOutputStationary, kWeightStationary, kInputStationary, kRowStationary };
std::string_view dataflow_name(Dataflow dataflow);  // "os", "ws", "is", "row_stationary"

// Per-PE scratchpads of a row-stationary array, in words of the unit's dtype. They bound how
// many filters (p) and channels (q) one PE interleaves, which sets the reuse the global buffer
// sees. Defaults: Eyeriss (Chen et al., JSSC 52(1) 2017): filter 224, ifmap 12, psum 24 words.
struct RowStationaryScratchpads {
  int64_t filter_words = 224;
  int64_t ifmap_words = 12;
  int64_t psum_words = 24;

  bool operator==(const RowStationaryScratchpads&) const = default;
};

struct SystolicBuffers {
  int64_t ifmap_kib = 512;
  int64_t filter_kib = 512;
  int64_t ofmap_kib = 256;
  // Each buffer is split in two halves: one feeds the array while the other is filled.
  bool double_buffered = true;
};

struct SystolicParams {
  std::string name;
  int64_t rows = 0;  // PE rows
  int64_t cols = 0;  // PE columns
  Dataflow dataflow = Dataflow::kWeightStationary;
  ir::DType dtype = ir::DType::kInt8;
  ir::DType acc_dtype = ir::DType::kInt32;
  SystolicBuffers buffers;
  RowStationaryScratchpads scratchpads;  // read by the row_stationary dataflow only
  std::optional<double> clock_ghz;  // nullopt = the SoC clock
  // Count an op's cycles as SCALE-Sim v2 reports them (its "Total Cycles" is the index of the
  // last cycle, one less than the count). See archs/systolic/README.md. False for
  // row_stationary, which has no SCALE-Sim counterpart (the YAML may only leave it at true).
  bool scalesim_compat = true;
};

// Whether an op's cycles drop the last one as SCALE-Sim v2 counts them: only the SCALE-Sim
// dataflows (os, ws, is) have that convention to match (params built in code may still set
// scalesim_compat on a row_stationary unit; the YAML reader refuses it).
inline bool drops_scalesim_last_cycle(const SystolicParams& params) {
  return params.scalesim_compat && params.dataflow != Dataflow::kRowStationary;
}

// The keys of a `kind: systolic` unit: what parse_systolic_params reads and `validate --describe
// systolic` prints.
const KeyTable& systolic_keys();

// Reads the keys of one `units[]` entry (name and kind already known) through systolic_keys().
// Errors name the key.
SystolicParams parse_systolic_params(KeyReader& unit, const std::string& unit_name);

}  // namespace polyarch::archs::systolic
