#pragma once
// Parameters of a `kind: systolic` unit, parsed and validated from arch YAML.
#include <cstdint>
#include <optional>
#include <string>

#include "base/key_reader.h"
#include "base/key_table.h"
#include "compiler/ir/dtype.h"

namespace polyarch::archs::systolic {

enum class Dataflow { kOutputStationary, kWeightStationary, kInputStationary };
std::string_view dataflow_name(Dataflow dataflow);  // "os", "ws", "is"

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
  std::optional<double> clock_ghz;  // nullopt = the SoC clock
  // Count an op's cycles as SCALE-Sim v2 reports them (its "Total Cycles" is the index of the
  // last cycle, one less than the count). See archs/systolic/README.md.
  bool scalesim_compat = true;
};

// The keys of a `kind: systolic` unit: what parse_systolic_params reads and `validate --describe
// systolic` prints.
const KeyTable& systolic_keys();

// Reads the keys of one `units[]` entry (name and kind already known) through systolic_keys().
// Errors name the key.
SystolicParams parse_systolic_params(KeyReader& unit, const std::string& unit_name);

}  // namespace polyarch::archs::systolic
