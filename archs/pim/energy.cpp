#include "archs/pim/energy.h"

namespace polyarch::archs::pim {

namespace {

constexpr double kPjToJ = 1e-12;
constexpr double kUm2ToMm2 = 1e-6;

}  // namespace

double pim_area_mm2(const PimParams& params, const sim::TechTable& tech) {
  const double lane_um2 = tech.mult_area_um2(params.dtype) + tech.add_area_um2(params.dtype);
  const double register_um2 =
      static_cast<double>(params.register_bytes) * 8.0 * tech.register_bit_area_um2();
  const double pu_um2 = static_cast<double>(params.lanes) * lane_um2 + register_um2;
  return static_cast<double>(params.pu_count()) * pu_um2 * kUm2ToMm2;
}

sim::EnergyByAction pim_op_energy(const PimParams& params, const sim::OpResult& op,
                                  const PimActivity& activity, const sim::EnergyContext& context) {
  const sim::TechTable& tech = context.tech;
  const double dram_pj_per_bit = tech.dram_pj_per_bit(context.dram_kind);
  const double row_bits = static_cast<double>(params.dram.row_bytes()) * 8.0;
  const double internal_bits = static_cast<double>(activity.internal_bytes) * 8.0;
  const double external_bits =
      static_cast<double>(op.dram_bytes_read + op.dram_bytes_written) * 8.0;
  const auto activations = static_cast<double>(activity.commands.activates);
  // A streamed row costs its activation share over all its bits: an ACT costs that share of a
  // whole row's worth of the all-in energy per bit.
  sim::EnergyByAction energy;
  energy["activate"] = activations * row_bits * dram_pj_per_bit * params.activation_share * kPjToJ;
  energy["column_read"] = internal_bits * dram_pj_per_bit * params.core_share * kPjToJ;
  energy["io"] = external_bits * dram_pj_per_bit * params.io_share * kPjToJ;
  // Each MAC multiplies and accumulates in the PU dtype, reading its operands from the
  // register buffer (one input element per MAC) — weights arrive straight from the column.
  const double macs = static_cast<double>(op.macs);
  energy["pu_compute"] = macs * tech.mac_pj(params.dtype, params.dtype) * kPjToJ;
  energy["pu_register"] = macs * 8.0 * static_cast<double>(ir::dtype_bytes(params.dtype)) *
                          tech.register_pj_per_bit() * kPjToJ;
  energy["leakage"] = tech.leakage_w(pim_area_mm2(params, tech)) * op.latency_s();
  return energy;
}

}  // namespace polyarch::archs::pim
