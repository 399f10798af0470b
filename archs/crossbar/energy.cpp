#include "archs/crossbar/energy.h"

#include "archs/crossbar/cell_tech.h"
#include "archs/crossbar/converter_energy.h"
#include "archs/crossbar/line_energy.h"

namespace polyarch::archs::crossbar {

namespace {

constexpr double kPjToJ = 1e-12;
constexpr double kFjToJ = 1e-15;

}  // namespace

namespace {

// The arrays with their drivers and the ADCs.
double arrays_and_adcs_mm2(const CrossbarParams& params) {
  const double arrays = static_cast<double>(params.array_count());
  if (params.adc.per_tile) {  // a shared pool of its own size
    return arrays * params.array_area_mm2 + static_cast<double>(params.tiles) *
                                                static_cast<double>(*params.adc.per_tile) *
                                                params.adc.area_mm2;
  }
  const double adcs_per_array =
      static_cast<double>(params.cols) / static_cast<double>(params.adc.columns_per_adc);
  return arrays * (params.array_area_mm2 + adcs_per_array * params.adc.area_mm2);
}

}  // namespace

double crossbar_area_mm2(const CrossbarParams& params) {
  return arrays_and_adcs_mm2(params) + params.periphery_area_mm2();
}

CrossbarEventEnergy crossbar_event_energy(const CrossbarParams& params,
                                          const sim::TechTable& tech) {
  const CellParams& cell = params.cell;
  CrossbarEventEnergy event;
  event.cell_read_fj = cell.read_energy_fj ? *cell.read_energy_fj : cell_read_fj(tech, cell.device);
  event.cell_write_pj =
      cell.write_energy_pj ? *cell.write_energy_pj : cell_write_pj(tech, cell.device);
  event.adc_pj = adc_conversion_pj(params.adc, tech);
  return event;
}

sim::EnergyByAction crossbar_op_energy(const CrossbarParams& params, const sim::OpResult& op,
                                       const CrossbarActivity& activity,
                                       const sim::EnergyContext& context) {
  sim::EnergyByAction energy;
  const CrossbarEventEnergy event = crossbar_event_energy(params, context.tech);
  const auto conversions = static_cast<double>(activity.adc_conversions);
  energy["adc"] = conversions * event.adc_pj * kPjToJ;
  energy["dac"] = static_cast<double>(activity.dac_drives) * params.dac_energy_pj * kPjToJ;
  energy["array_read"] = static_cast<double>(activity.cell_reads) * event.cell_read_fj * kFjToJ;
  if (prices_lines(params.cell.device)) {
    // Every conversion reads one column, whose bit line was precharged for that read.
    energy["bit_lines"] = conversions * bitline_pj_per_column_read(params, context.tech) * kPjToJ;
    energy["word_lines"] = static_cast<double>(activity.dac_drives) *
                           wordline_pj_per_drive(params, context.tech) * kPjToJ;
  }
  energy["shift_add"] = conversions * params.shift_add_energy_pj * kPjToJ;
  energy["reprogram"] =
      static_cast<double>(activity.cells_reprogrammed) * event.cell_write_pj * kPjToJ;
  const double dram_bits = static_cast<double>(op.dram_bytes_read + op.dram_bytes_written) * 8.0;
  energy["dram"] = dram_bits * context.tech.dram_pj_per_bit(context.dram_kind) * kPjToJ;
  // The periphery (buffers, buses, routers, I/O links) draws its published power while the op
  // runs: its breakdown gives a power at the chip's operating point, not energy per access.
  energy["periphery"] = params.periphery_power_w() * op.latency_s();
  energy["leakage"] = context.tech.leakage_w(crossbar_area_mm2(params)) * op.latency_s();
  return energy;
}

}  // namespace polyarch::archs::crossbar
