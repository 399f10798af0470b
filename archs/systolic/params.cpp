#include "archs/systolic/params.h"

#include "archs/common_keys.h"
#include "base/error.h"
#include "base/key_specs.h"

namespace polyarch::archs::systolic {

std::string_view dataflow_name(Dataflow dataflow) {
  switch (dataflow) {
    case Dataflow::kOutputStationary:
      return "os";
    case Dataflow::kWeightStationary:
      return "ws";
    case Dataflow::kInputStationary:
      return "is";
    case Dataflow::kRowStationary:
      return "row_stationary";
  }
  return "?";
}

namespace {

// Largest array side accepted: far beyond any built array, small enough that rows*cols*T of a
// GPT-3-sized layer stays within 64 bits.
constexpr int64_t kMaxArraySide = 1 << 16;
// A scratchpad of a million words is no longer a PE-local register file: a typo guard.
constexpr int64_t kMaxScratchpadWords = int64_t{1} << 20;
// 1 TiB of on-chip SRAM per buffer is an obvious typo guard, not a design limit.
constexpr int64_t kMaxBufferKib = int64_t{1} << 30;

Dataflow parse_dataflow(const std::string& text) {
  if (text == "os") return Dataflow::kOutputStationary;
  if (text == "is") return Dataflow::kInputStationary;
  if (text == "row_stationary") return Dataflow::kRowStationary;
  return Dataflow::kWeightStationary;
}

SystolicBuffers parse_buffers(KeyReader& unit) {
  SystolicBuffers buffers;
  KeyReader reader = unit.nested_or_defaults("buffers");
  buffers.ifmap_kib = reader.read_int("ifmap_kib");
  buffers.filter_kib = reader.read_int("filter_kib");
  buffers.ofmap_kib = reader.read_int("ofmap_kib");
  buffers.double_buffered = reader.read_bool("double_buffered");
  reader.finish();
  return buffers;
}

RowStationaryScratchpads parse_scratchpads(KeyReader& unit) {
  RowStationaryScratchpads pads;
  KeyReader reader = unit.nested_or_defaults("scratchpads");
  pads.filter_words = reader.read_int("filter_words");
  pads.ifmap_words = reader.read_int("ifmap_words");
  pads.psum_words = reader.read_int("psum_words");
  reader.finish();
  return pads;
}

}  // namespace

const KeyTable& systolic_keys() {
  static const KeyTable table = [] {
    const SystolicBuffers buffers;
    const SystolicParams params;
    const RowStationaryScratchpads pads;
    return unit_key_table(
        "systolic", "a 2-D array of MAC PEs fed by ifmap, filter and ofmap SRAM (SCALE-Sim v2)",
        {int_key("rows", "PEs", kRequired, 1, kMaxArraySide, "PE rows of the array"),
         int_key("cols", "PEs", kRequired, 1, kMaxArraySide, "PE columns of the array"),
         choice_key("dataflow", kRequired, {"os", "ws", "is", "row_stationary"},
                    "what stays in the PEs: outputs, weights, inputs, or filter and ifmap rows "
                    "(Eyeriss's row stationary)"),
         dtype_key("dtype", params.dtype, "operand type"),
         dtype_key("acc_dtype", params.acc_dtype, "accumulator type"),
         bool_key("scalesim_compat", params.scalesim_compat,
                  "count cycles as SCALE-Sim v2 reports them (the last cycle's index)"),
         map_key("buffers", "{}", "the on-chip SRAM buffers"),
         int_key("buffers.ifmap_kib", "KiB", default_text(buffers.ifmap_kib), 1, kMaxBufferKib,
                 "input feature map buffer"),
         int_key("buffers.filter_kib", "KiB", default_text(buffers.filter_kib), 1, kMaxBufferKib,
                 "filter (weight) buffer"),
         int_key("buffers.ofmap_kib", "KiB", default_text(buffers.ofmap_kib), 1, kMaxBufferKib,
                 "output feature map buffer"),
         bool_key("buffers.double_buffered", buffers.double_buffered,
                  "each buffer in two halves: one feeds the array while the other fills"),
         map_key("scratchpads", "{}", "per-PE scratchpads of the row_stationary dataflow"),
         int_key("scratchpads.filter_words", "words", default_text(pads.filter_words), 1,
                 kMaxScratchpadWords, "filter scratchpad of one PE (Eyeriss: 224)"),
         int_key("scratchpads.ifmap_words", "words", default_text(pads.ifmap_words), 1,
                 kMaxScratchpadWords, "ifmap scratchpad of one PE (Eyeriss: 12)"),
         int_key("scratchpads.psum_words", "words", default_text(pads.psum_words), 1,
                 kMaxScratchpadWords, "partial-sum scratchpad of one PE (Eyeriss: 24)"),
         clock_key()});
  }();
  return table;
}

SystolicParams parse_systolic_params(KeyReader& unit, const std::string& unit_name) {
  SystolicParams params;
  params.name = unit_name;
  params.rows = unit.read_int("rows");
  params.cols = unit.read_int("cols");
  params.dataflow = parse_dataflow(unit.read_choice("dataflow"));
  params.dtype = read_dtype(unit, "dtype");
  params.acc_dtype = read_dtype(unit, "acc_dtype");
  params.buffers = parse_buffers(unit);
  params.scratchpads = parse_scratchpads(unit);
  params.clock_ghz = unit.read_optional_number("clock_ghz");
  params.scalesim_compat = unit.read_bool("scalesim_compat");
  // Each of these keys acts in one kind of dataflow only: set away from its default for the
  // other, it is a mistake the run would otherwise ignore.
  const ConfigNode& node = unit.map_reader().node();
  const bool row_stationary = params.dataflow == Dataflow::kRowStationary;
  if (const ConfigNode* pads = node.find("scratchpads");
      pads != nullptr && !row_stationary && !(params.scratchpads == RowStationaryScratchpads{})) {
    throw_bad_input(pads->where(),
                    "scratchpads: per-PE scratchpads belong to dataflow: "
                    "row_stationary; this unit runs " +
                        std::string(dataflow_name(params.dataflow)));
  }
  if (const ConfigNode* compat = node.find("scalesim_compat");
      compat != nullptr && row_stationary && !params.scalesim_compat) {
    throw_bad_input(compat->where(),
                    "scalesim_compat: SCALE-Sim's cycle convention applies to os, ws and is; "
                    "row_stationary counts every cycle");
  }
  if (row_stationary) params.scalesim_compat = false;
  return params;
}

}  // namespace polyarch::archs::systolic
