#pragma once
// Which types a systolic array runs, converts or refuses, and the type its buffers and DRAM
// hold an op's operands in.
//
// An integer array runs int4 natively at its own rate, "as configured": 4-bit codes sign-extend
// into its int8 (or wider) PEs exactly, so nothing is converted and nothing is faster, but the
// operands stay packed two to a byte in the buffers and in DRAM. A float array converts an op
// of a narrow type (fp8, int4: both exact in fp16, bf16 or fp32) at the array's edge: the
// operands are fetched and buffered as stored and widened as they enter the array, the results
// narrowed as they leave. An integer array refuses an fp8 op: holding it in integer PEs would
// be a quantisation (a choice of scales), not a format conversion. Wider types keep what the
// array always did: they run as its dtype and the report flags the op converted.
#include <optional>
#include <string>

#include "archs/systolic/params.h"
#include "compiler/ir/op.h"

namespace polyarch::archs::systolic {

// The type the array computes `op` in: int4 on an integer array, else the array's dtype.
ir::DType systolic_run_dtype(const SystolicParams& params, const ir::Op& op);

// The type the operands occupy in the buffers and in DRAM: an op's narrow type as stored,
// else the array's dtype.
ir::DType systolic_stored_dtype(const SystolicParams& params, const ir::Op& op);

// Why the array cannot run `op`'s type, naming both; nullopt where it runs or converts it.
std::optional<std::string> systolic_type_refusal(const SystolicParams& params, const ir::Op& op);

// Elements the array's edge converts per cycle: one on each of its `rows` ifmap ports and its
// `cols` filter ports (the outputs leave through the column ports the same way).
int64_t systolic_conversions_per_cycle(const SystolicParams& params);

}  // namespace polyarch::archs::systolic
