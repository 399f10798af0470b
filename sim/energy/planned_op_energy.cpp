#include "sim/energy/planned_op_energy.h"

#include <algorithm>

namespace polyarch::sim {

double planned_op_joules(const ir::Op& op, const TechTable& tech, const std::string& dram_kind) {
  constexpr double kPjToJ = 1e-12;
  const ir::DType dtype = priced_dtype(op.dtype.value_or(ir::DType::kFp32));
  const auto macs = static_cast<double>(ir::mac_count(op));
  const double other_ops = std::max(0.0, static_cast<double>(ir::flop_count(op)) - 2.0 * macs);
  const auto bits = 8.0 * static_cast<double>(ir::bytes_touched(op, ir::DType::kFp32));
  const double pj = macs * tech.mac_pj(dtype, accumulator_dtype(dtype)) +
                    other_ops * tech.add_pj(accumulator_dtype(dtype)) +
                    bits * tech.dram_pj_per_bit(dram_kind);
  return pj * kPjToJ;
}

}  // namespace polyarch::sim
