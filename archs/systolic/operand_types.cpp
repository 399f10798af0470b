#include "archs/systolic/operand_types.h"

#include "base/checked_math.h"

namespace polyarch::archs::systolic {

namespace {

bool runs_natively_as_configured(const SystolicParams& params, ir::DType given) {
  return given == ir::DType::kInt4 && !ir::is_float(params.dtype);
}

}  // namespace

ir::DType systolic_run_dtype(const SystolicParams& params, const ir::Op& op) {
  const ir::DType given = op.dtype.value_or(params.dtype);
  return runs_natively_as_configured(params, given) ? given : params.dtype;
}

ir::DType systolic_stored_dtype(const SystolicParams& params, const ir::Op& op) {
  const ir::DType given = op.dtype.value_or(params.dtype);
  return ir::is_narrow(given) ? given : params.dtype;
}

std::optional<std::string> systolic_type_refusal(const SystolicParams& params,
                                                 const ir::Op& op) {
  if (!op.dtype || !ir::is_narrow(*op.dtype) || !ir::is_float(*op.dtype) ||
      ir::is_float(params.dtype)) {
    return std::nullopt;
  }
  return "systolic unit '" + params.name + "' has " + std::string(ir::dtype_name(params.dtype)) +
         " PEs: '" + op.name + "' in " + std::string(ir::dtype_name(*op.dtype)) +
         " would have to be quantised to run there, not converted";
}

int64_t systolic_conversions_per_cycle(const SystolicParams& params) {
  return checked_add(params.rows, params.cols, "systolic edge ports");
}

}  // namespace polyarch::archs::systolic
