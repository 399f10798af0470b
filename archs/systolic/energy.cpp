#include "archs/systolic/energy.h"

#include <algorithm>
#include <string>

namespace polyarch::archs::systolic {

namespace {

constexpr double kPjToJ = 1e-12;
constexpr double kUm2ToMm2 = 1e-6;

double bits(ir::DType dtype) { return 8.0 * static_cast<double>(ir::dtype_bytes(dtype)); }

// Pipeline-register bits one PE holds: os keeps both moving operands and its output
// accumulator; ws/is keep the stationary operand, the moving operand and the partial sum; a
// row-stationary PE latches the operand pair its multiplier reads and the partial sum its adder
// writes.
double pipeline_register_bits(const SystolicParams& params) {
  return 2.0 * bits(params.dtype) + bits(params.acc_dtype);
}

// A row-stationary PE's scratchpads held in flip-flops: the ifmap and psum scratchpads (Eyeriss,
// Chen et al., JSSC 52(1) 2017: registers; the psum words are priced in the unit's acc_dtype, the
// type the model accumulates in). The filter scratchpad is an SRAM macro, priced apart.
double scratchpad_register_bits(const SystolicParams& params) {
  if (params.dataflow != Dataflow::kRowStationary) return 0.0;
  const RowStationaryScratchpads& pads = params.scratchpads;
  return static_cast<double>(pads.ifmap_words) * bits(params.dtype) +
         static_cast<double>(pads.psum_words) * bits(params.acc_dtype);
}

// Flip-flop bits one PE holds: what its area counts at the register-bit area and what the clock
// network drives every cycle.
double register_bits_per_pe(const SystolicParams& params) {
  return pipeline_register_bits(params) + scratchpad_register_bits(params);
}

// Capacity (KiB) of a row-stationary PE's filter scratchpad SRAM; none for os, ws, is.
double filter_scratchpad_kib(const SystolicParams& params) {
  if (params.dataflow != Dataflow::kRowStationary) return 0.0;
  return static_cast<double>(params.scratchpads.filter_words) * bits(params.dtype) / 8.0 / 1024.0;
}

// The capacity one access sees: one half of a double-buffered buffer.
double access_kib(int64_t kib, bool double_buffered) {
  return double_buffered ? static_cast<double>(kib) / 2.0 : static_cast<double>(kib);
}

sim::BufferAccesses accesses(const sim::OpResult& op, const std::string& buffer) {
  auto found = op.sram.find(buffer);
  return found == op.sram.end() ? sim::BufferAccesses{} : found->second;
}

// Register bits accessed per MAC: the moving operand(s) advance one PE and the partial sum
// either advances one PE (ws, is) or is rewritten in place (os). A row-stationary MAC reads an
// ifmap word and a partial sum from their register scratchpads and writes the partial sum back
// (its filter word comes from the filter scratchpad SRAM, priced as pe_filter_spad).
double register_bits_per_mac(const SystolicParams& params) {
  switch (params.dataflow) {
    case Dataflow::kOutputStationary:
      return 2.0 * bits(params.dtype) + bits(params.acc_dtype);
    case Dataflow::kRowStationary:
      return bits(params.dtype) + 2.0 * bits(params.acc_dtype);
    case Dataflow::kWeightStationary:
    case Dataflow::kInputStationary:
      break;
  }
  return bits(params.dtype) + bits(params.acc_dtype);
}

// Register bits written outside the MAC stream: ws/is shift the stationary tile in from the
// array edge (an element bound for row r passes r + 1 registers: (rows + 1) / 2 on average);
// os shifts finished outputs out the same way.
double edge_shift_register_bits(const SystolicParams& params, const sim::OpResult& op) {
  const double mean_hops = (static_cast<double>(params.rows) + 1.0) / 2.0;
  switch (params.dataflow) {
    case Dataflow::kWeightStationary:
      return static_cast<double>(accesses(op, "filter").reads) * mean_hops * bits(params.dtype);
    case Dataflow::kInputStationary:
      return static_cast<double>(accesses(op, "ifmap").reads) * mean_hops * bits(params.dtype);
    case Dataflow::kOutputStationary:
      return static_cast<double>(accesses(op, "ofmap").writes) * mean_hops * bits(params.acc_dtype);
    case Dataflow::kRowStationary:
      return 0.0;  // operands reach the PEs over the multicast NoC, not through neighbours
  }
  return 0.0;
}

}  // namespace

double systolic_clocked_bits(const SystolicParams& params) {
  return static_cast<double>(params.rows) * static_cast<double>(params.cols) *
         register_bits_per_pe(params);
}

double systolic_area_mm2(const SystolicParams& params, const sim::TechTable& tech) {
  const double pe_um2 = tech.mult_area_um2(params.dtype) + tech.add_area_um2(params.acc_dtype) +
                        register_bits_per_pe(params) * tech.register_bit_area_um2() +
                        tech.sram_area_mm2(filter_scratchpad_kib(params)) / kUm2ToMm2;
  const double array_mm2 =
      static_cast<double>(params.rows) * static_cast<double>(params.cols) * pe_um2 * kUm2ToMm2;
  const SystolicBuffers& buffers = params.buffers;
  const double sram_kib =
      static_cast<double>(buffers.ifmap_kib + buffers.filter_kib + buffers.ofmap_kib);
  return array_mm2 + tech.sram_area_mm2(sram_kib);
}

sim::EnergyByAction systolic_op_energy(const SystolicParams& params, const sim::OpResult& op,
                                       const sim::EnergyContext& context) {
  const sim::TechTable& tech = context.tech;
  const SystolicBuffers& buffers = params.buffers;
  const double macs = static_cast<double>(op.macs);
  const double operand_bits = bits(params.dtype);
  const double acc_bits = bits(params.acc_dtype);

  // One access per array edge per cycle: a row of operands enters along the array's rows
  // (ifmap), a row along its columns (filter), and partial sums leave along its columns.
  const int64_t ifmap_width = params.rows * static_cast<int64_t>(operand_bits);
  const int64_t filter_width = params.cols * static_cast<int64_t>(operand_bits);
  const int64_t ofmap_width = params.cols * static_cast<int64_t>(acc_bits);
  const double ifmap_kib = access_kib(buffers.ifmap_kib, buffers.double_buffered);
  const double filter_kib = access_kib(buffers.filter_kib, buffers.double_buffered);
  const double ofmap_kib = access_kib(buffers.ofmap_kib, buffers.double_buffered);

  auto sram_pj = [&](const std::string& buffer, double kib, int64_t width, double element_bits) {
    const sim::BufferAccesses counts = accesses(op, buffer);
    const double elements = static_cast<double>(counts.reads + counts.writes);
    return elements * element_bits * tech.sram_access_pj_per_bit(kib, width);
  };

  // DRAM traffic also lands in (reads) or leaves from (writes) the operand buffers. OpResult
  // does not split it by operand, so it is charged at the largest buffer's per-bit energy,
  // an upper bound over the three.
  const double fill_pj_per_bit = std::max({tech.sram_access_pj_per_bit(ifmap_kib, ifmap_width),
                                           tech.sram_access_pj_per_bit(filter_kib, filter_width),
                                           tech.sram_access_pj_per_bit(ofmap_kib, ofmap_width)});
  const double dram_bits = 8.0 * static_cast<double>(op.dram_bytes_read + op.dram_bytes_written);

  sim::EnergyByAction energy;
  energy["mac"] = macs * tech.mac_pj(params.dtype, params.acc_dtype) * kPjToJ;
  energy["pe_register"] =
      (macs * register_bits_per_mac(params) + edge_shift_register_bits(params, op)) *
      tech.register_pj_per_bit() * kPjToJ;
  if (params.dataflow == Dataflow::kRowStationary) {
    // Each MAC reads one filter word from the PE's own filter scratchpad, a macro of
    // filter_words x b(d) accessed one word wide.
    const int64_t word_bits = static_cast<int64_t>(operand_bits);
    energy["pe_filter_spad"] =
        macs * operand_bits *
        tech.sram_access_pj_per_bit(filter_scratchpad_kib(params), word_bits) * kPjToJ;
  }
  energy["sram_ifmap"] = sram_pj("ifmap", ifmap_kib, ifmap_width, operand_bits) * kPjToJ;
  energy["sram_filter"] = sram_pj("filter", filter_kib, filter_width, operand_bits) * kPjToJ;
  energy["sram_ofmap"] = sram_pj("ofmap", ofmap_kib, ofmap_width, acc_bits) * kPjToJ;
  energy["sram_fill"] = dram_bits * fill_pj_per_bit * kPjToJ;
  energy["dram"] = dram_bits * tech.dram_pj_per_bit(context.dram_kind) * kPjToJ;
  energy["leakage"] = tech.leakage_w(systolic_area_mm2(params, tech)) * op.latency_s();
  return energy;
}

}  // namespace polyarch::archs::systolic
