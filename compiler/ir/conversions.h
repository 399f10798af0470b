#pragma once
// The format conversions a unit performs when it computes an op in another type than the one
// its operands are stored in: each element widened once as it is read, each result narrowed
// once as it is written. The kinds that convert in a pass of their own (archs/conversion_pass.h)
// count them here and price them on their own resource; a PIM unit counts what its PUs convert
// in its plan (each weight once per pass over the banks, the broadcast inputs once per PU).
#include <cstdint>

#include "compiler/ir/dtype.h"
#include "compiler/ir/op.h"

namespace polyarch::ir {

struct Conversions {
  int64_t widened = 0;   // elements read in the stored type, converted to the run type
  int64_t narrowed = 0;  // results converted back to the stored type
  int64_t total() const { return widened + narrowed; }
};

// An op whose type is narrow (fp8, int4) run in another type `run`: every element it reads
// (each distinct element once, as bytes_touched counts them: weights and KV caches in the
// type they are stored in included) is widened, every element it writes narrowed back. None
// when `run` is the op's type, or the op names none or a whole-byte type: running an fp32 op
// on an int8 array is a quantisation the run asked for, which the report flags but which no
// datapath performs per element.
Conversions converted_operands(const Op& op, DType run);

}  // namespace polyarch::ir
