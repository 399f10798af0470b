#pragma once
// The format conversions of a unit whose own model runs an op in the wide type: before the op,
// the unit's converting resource (its lanes, cores, PEs or edge converters: each kind says how
// many elements it converts per cycle) widens the operands stored in the op's narrow type and,
// after it, narrows the results back. The pass is timed on its own, not overlapped with the
// op: an upper bound, as a kernel that converts a tensor before a GEMM that cannot read it is.
#include <cstdint>
#include <functional>

#include "compiler/ir/conversions.h"
#include "compiler/ir/op.h"
#include "sim/kernel/unit_model.h"

namespace polyarch::archs {

// What a unit converts for one op, in elements, and the cycles of its clock that takes.
struct ConversionWork {
  ir::DType run_dtype = ir::DType::kFp32;
  int64_t elements = 0;
  int64_t cycles = 0;
};

// Cycles `elements` conversions take at `per_cycle` conversions a cycle (rounded up).
int64_t conversion_cycles(int64_t elements, int64_t per_cycle);

// `inner`'s unit with each op's ConversionWork (from `work_of`) done on it before the op: the
// unit waits out the cycles, and the op's result counts them in compute_cycles and reports
// them (OpResult::converted_elements, conversion_cycles) with the type it ran in.
sim::UnitFactory with_conversion_pass(sim::UnitFactory inner,
                                      std::function<ConversionWork(const ir::Op&)> work_of);

}  // namespace polyarch::archs
