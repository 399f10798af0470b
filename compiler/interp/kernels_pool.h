#pragma once
// MaxPool and AveragePool as ONNX defines them, for any number of spatial axes: begin and end
// padding of their own, dilated windows, and ceil_mode windows that hang past the input's end.
#include <vector>

#include "compiler/interp/dense_tensor.h"

namespace polyarch::interp {

// One pool's window over the spatial axes of an [N, C, spatial...] input.
struct PoolWindow {
  std::vector<int64_t> kernel;
  std::vector<int64_t> strides;
  std::vector<int64_t> dilations;
  std::vector<int64_t> pad_begin;
  std::vector<int64_t> pad_end;
};

struct PoolOptions {
  bool take_max = true;
  // Average pools divide by the window's positions inside the padded input (the overhang of a
  // ceil_mode window never counts), else by those inside the input.
  bool count_include_pad = false;
  bool with_indices = false;          // also MaxPool's Indices: flat over [N, C, spatial...]
  bool column_major_indices = false;  // storage_order 1: the spatial axes column-major
};

// The pooled values shaped `output_shape` (from shape inference), then the indices if asked.
// Empty when a window covers no input element (padding alone), which ONNX leaves undefined.
std::vector<DenseTensor> window_pool(const DenseTensor& input, const Shape& output_shape,
                                     const PoolWindow& window, const PoolOptions& options);

}  // namespace polyarch::interp
