// Rearranging kernels: DepthToSpace, SpaceToDepth, Tile and Pad.
#include "base/error.h"
#include "compiler/interp/kernels.h"
#include "compiler/interp/kernels_data.h"
#include "compiler/ir/tensor.h"

namespace polyarch::interp {

namespace {

DenseTensor reshaped(DenseTensor tensor, Shape shape) {
  tensor.shape = std::move(shape);
  return tensor;
}

// The coordinate of the input that output coordinate `at` (already shifted by the begin pad)
// reads, or -1 for a constant pad.
int64_t padded_source(int64_t at, int64_t length, const std::string& mode) {
  if (at >= 0 && at < length) return at;
  if (mode == "edge") return at < 0 ? 0 : length - 1;
  if (mode == "reflect") {
    if (length == 1) return 0;
    // Mirror about the edges without repeating them (NumPy's "reflect"), as often as needed.
    const int64_t period = 2 * (length - 1);
    int64_t folded = ((at % period) + period) % period;
    return folded < length ? folded : period - folded;
  }
  return -1;
}

}  // namespace

DenseTensor depth_to_space(const DenseTensor& input, int64_t blocksize, bool column_row_depth) {
  const int64_t n = input.shape[0], c = input.shape[1], h = input.shape[2], w = input.shape[3];
  const int64_t b = blocksize;
  const int64_t depth = c / (b * b);
  // ONNX's definition: a reshape to six axes, a transpose, a reshape back to four.
  const DenseTensor split = column_row_depth ? reshaped(input, {n, depth, b, b, h, w})
                                             : reshaped(input, {n, b, b, depth, h, w});
  const DenseTensor moved = column_row_depth ? transpose(split, {0, 1, 4, 2, 5, 3})
                                             : transpose(split, {0, 3, 4, 1, 5, 2});
  return reshaped(moved, {n, depth, h * b, w * b});
}

DenseTensor space_to_depth(const DenseTensor& input, int64_t blocksize) {
  const int64_t n = input.shape[0], c = input.shape[1], h = input.shape[2], w = input.shape[3];
  const int64_t b = blocksize;
  const DenseTensor moved =
      transpose(reshaped(input, {n, c, h / b, b, w / b, b}), {0, 3, 5, 1, 2, 4});
  return reshaped(moved, {n, c * b * b, h / b, w / b});
}

DenseTensor tile(const DenseTensor& input, const std::vector<int64_t>& repeats) {
  Shape shape = input.shape;
  for (std::size_t d = 0; d < shape.size(); ++d) shape[d] *= repeats[d];
  const std::vector<int64_t> strides = row_major_strides(input.shape);
  DenseTensor result = filled_tensor(shape);
  for (int64_t flat = 0; flat < result.size(); ++flat) {
    int64_t rest = flat;
    int64_t source = 0;
    for (std::size_t d = shape.size(); d-- > 0;) {
      source += (rest % shape[d]) % input.shape[d] * strides[d];
      rest /= shape[d];
    }
    result.values[static_cast<std::size_t>(flat)] = input.values[static_cast<std::size_t>(source)];
  }
  return result;
}

DenseTensor pad(const DenseTensor& input, const std::vector<int64_t>& pads, const std::string& mode,
                float value) {
  const std::size_t rank = input.shape.size();
  Shape shape = input.shape;
  for (std::size_t d = 0; d < rank; ++d) shape[d] += pads[d] + pads[d + rank];
  const std::vector<int64_t> strides = row_major_strides(input.shape);
  DenseTensor result = filled_tensor(shape, value);
  for (int64_t flat = 0; flat < result.size(); ++flat) {
    int64_t rest = flat;
    int64_t source = 0;
    bool inside = true;
    for (std::size_t d = rank; d-- > 0;) {
      const int64_t at = padded_source(rest % shape[d] - pads[d], input.shape[d], mode);
      rest /= shape[d];
      if (at < 0) inside = false;
      source += at * strides[d];
    }
    if (inside) {
      result.values[static_cast<std::size_t>(flat)] =
          input.values[static_cast<std::size_t>(source)];
    }
  }
  return result;
}

}  // namespace polyarch::interp
