#include "compiler/interp/narrow_constants.h"

#include "base/error.h"
#include "compiler/interp/narrow_formats.h"
#include "compiler/interp/quantised_operands.h"

namespace polyarch::interp {

namespace {

// A 4-bit two's-complement code as its value, -8 ... 7.
float int4_value(unsigned nibble) {
  return static_cast<float>(nibble >= 8 ? static_cast<int>(nibble) - 16 : static_cast<int>(nibble));
}

}  // namespace

std::optional<DenseTensor> narrow_constant_value(const ir::Tensor& tensor) {
  if (!tensor.has_data() || !ir::is_narrow(tensor.dtype)) return std::nullopt;
  const int64_t count = ir::element_count(tensor.shape);
  const std::vector<std::byte>& bytes = *tensor.data;
  if (static_cast<int64_t>(bytes.size()) != ir::storage_bytes(count, tensor.dtype)) {
    throw_bad_input({}, "constant '" + tensor.name + "' holds " + std::to_string(bytes.size()) +
                            " bytes, not the " +
                            std::to_string(ir::storage_bytes(count, tensor.dtype)) + " its " +
                            std::to_string(count) + " " +
                            std::string(ir::dtype_name(tensor.dtype)) + " values need");
  }
  DenseTensor dense;
  dense.shape = tensor.shape;
  dense.dtype = tensor.dtype;
  dense.values.resize(static_cast<std::size_t>(count));
  const std::optional<Fp8Format> fp8 = fp8_format_of(tensor.dtype);
  for (std::size_t i = 0; i < dense.values.size(); ++i) {
    if (fp8) {
      dense.values[i] = fp8_value(static_cast<uint8_t>(bytes[i]), *fp8);
    } else {
      const auto byte = static_cast<unsigned>(bytes[i / 2]);
      dense.values[i] = int4_value(i % 2 == 0 ? byte & 0xFu : byte >> 4);
    }
  }
  return dense;
}

}  // namespace polyarch::interp
