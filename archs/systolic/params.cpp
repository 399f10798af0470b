#include "archs/systolic/params.h"

#include "archs/common_keys.h"

namespace polyarch::archs::systolic {

std::string_view dataflow_name(Dataflow dataflow) {
  switch (dataflow) {
    case Dataflow::kOutputStationary:
      return "os";
    case Dataflow::kWeightStationary:
      return "ws";
    case Dataflow::kInputStationary:
      return "is";
  }
  return "?";
}

namespace {

// Largest array side accepted: far beyond any built array, small enough that rows*cols*T of a
// GPT-3-sized layer stays within 64 bits.
constexpr int64_t kMaxArraySide = 1 << 16;
// 1 TiB of on-chip SRAM per buffer is an obvious typo guard, not a design limit.
constexpr int64_t kMaxBufferKib = int64_t{1} << 30;

Dataflow parse_dataflow(const std::string& text) {
  if (text == "os") return Dataflow::kOutputStationary;
  if (text == "is") return Dataflow::kInputStationary;
  return Dataflow::kWeightStationary;
}

SystolicBuffers parse_buffers(MapReader& unit_reader) {
  SystolicBuffers buffers;
  const ConfigNode* node = unit_reader.optional("buffers");
  if (node == nullptr) return buffers;
  MapReader reader(*node);
  buffers.ifmap_kib = reader.optional_int("ifmap_kib", buffers.ifmap_kib, 1, kMaxBufferKib);
  buffers.filter_kib = reader.optional_int("filter_kib", buffers.filter_kib, 1, kMaxBufferKib);
  buffers.ofmap_kib = reader.optional_int("ofmap_kib", buffers.ofmap_kib, 1, kMaxBufferKib);
  buffers.double_buffered = reader.optional_bool("double_buffered", buffers.double_buffered);
  reader.finish();
  return buffers;
}

}  // namespace

SystolicParams parse_systolic_params(MapReader& unit_reader, const std::string& unit_name) {
  SystolicParams params;
  params.name = unit_name;
  params.rows = unit_reader.required_int("rows", 1, kMaxArraySide);
  params.cols = unit_reader.required_int("cols", 1, kMaxArraySide);
  params.dataflow = parse_dataflow(unit_reader.required_enum("dataflow", {"os", "ws", "is"}));
  params.dtype = optional_dtype_key(unit_reader, "dtype", ir::DType::kInt8);
  params.acc_dtype = optional_dtype_key(unit_reader, "acc_dtype", ir::DType::kInt32);
  params.buffers = parse_buffers(unit_reader);
  params.clock_ghz = optional_clock_key(unit_reader);
  params.scalesim_compat = unit_reader.optional_bool("scalesim_compat", params.scalesim_compat);
  return params;
}

}  // namespace polyarch::archs::systolic
