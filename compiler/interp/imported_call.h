#pragma once
// What the kernels of imported operators read of their call: operands by ONNX position, the
// node's attributes, and errors that name the node.
#include <optional>
#include <string>
#include <vector>

#include "compiler/interp/execute_data.h"

namespace polyarch::interp {

using ImportedKernel = std::vector<DenseTensor> (*)(const ImportedOpCall&);

[[noreturn]] void fail(const ImportedOpCall& call, const std::string& message);
// Operand i; a node error when it is omitted.
const DenseTensor& operand(const ImportedOpCall& call, std::size_t i);
// Operand i, or null when it is omitted or past the end.
const DenseTensor* optional_operand(const ImportedOpCall& call, std::size_t i);
std::vector<int64_t> integers(const DenseTensor& tensor);
int64_t int_attr(const ImportedOpCall& call, const std::string& name, int64_t fallback);
float float_attr(const ImportedOpCall& call, const std::string& name, double fallback);
int64_t axis_of(const ImportedOpCall& call, int64_t axis, std::size_t rank);
// A result whose shape the model declared (the operands' values were not known when compiling)
// must come out as declared; a model whose values disagree is refused rather than reshaped.
std::vector<DenseTensor> as_declared(const ImportedOpCall& call, DenseTensor value);

// The kernels of compute operators that canonical ops cost but do not describe: pools of any
// rank and padding, Einsum, integer convolutions and products, DFT, STFT and the windows.
ImportedKernel compute_kernel(const std::string& op_type);
// BatchNormalization with training_mode: Y and the running statistics; nullopt in inference
// mode, which its canonical op computes.
std::optional<std::vector<DenseTensor>> run_training_batch_norm(const ImportedOpCall& call);
// The kernels of NonMaxSuppression, Unique and MaxUnpool.
ImportedKernel selection_kernel(const std::string& op_type);

}  // namespace polyarch::interp
