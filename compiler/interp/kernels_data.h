#pragma once
// fp32 reference kernels of ONNX's indexing and rearranging operators, which lower to Copy ops
// (they move data and compute nothing, or next to nothing): each is the operator's definition
// as a loop nest. Index operands hold exact integers; an index outside its axis is a bad-input
// error, as ONNX leaves it undefined.
#include <optional>
#include <string>
#include <vector>

#include "compiler/interp/dense_tensor.h"
#include "compiler/ir/op.h"
#include "compiler/passes/conv_transpose_geometry.h"

namespace polyarch::interp {

// GatherElements: result[i] = data[i with i[axis] replaced by indices[i]].
DenseTensor gather_elements(const DenseTensor& data, const DenseTensor& indices, int64_t axis);

// ScatterElements: data with data[i with i[axis] = indices[i]] set to (or, with `reduction`
// "add", "mul", "max" or "min", combined with) updates[i], in the updates' row-major order.
DenseTensor scatter_elements(const DenseTensor& data, const DenseTensor& indices,
                             const DenseTensor& updates, int64_t axis,
                             const std::string& reduction);

// GatherND with `batch_dims` leading batch axes shared by data and indices.
DenseTensor gather_nd(const DenseTensor& data, const DenseTensor& indices, int64_t batch_dims,
                      const Shape& result_shape);

// ScatterND: data with the slices indices[..., :] name replaced by (or combined with) updates.
DenseTensor scatter_nd(const DenseTensor& data, const DenseTensor& indices,
                       const DenseTensor& updates, const std::string& reduction);

// Trilu: the upper (j - i >= k) or lower (j - i <= k) triangle of each matrix of the last two
// axes, zeros elsewhere.
DenseTensor trilu(const DenseTensor& input, int64_t k, bool upper);

// CumSum along `axis`: inclusive or exclusive (the sum of the elements before), forward or
// reversed.
DenseTensor cumsum(const DenseTensor& input, int64_t axis, bool exclusive, bool reverse);

// Hardmax along `axis`: 1 at the first largest element of each lane, 0 elsewhere.
DenseTensor hardmax(const DenseTensor& input, int64_t axis);

// DepthToSpace (mode "DCR" or "CRD") and SpaceToDepth of an NCHW tensor with `blocksize`.
DenseTensor depth_to_space(const DenseTensor& input, int64_t blocksize, bool column_row_depth);
DenseTensor space_to_depth(const DenseTensor& input, int64_t blocksize);

// Tile: `repeats` copies along each axis.
DenseTensor tile(const DenseTensor& input, const std::vector<int64_t>& repeats);

// Pad with `pads` = [begin_0, ..., begin_n-1, end_0, ..., end_n-1] (negative pads crop) and
// `mode` "constant" (filled with `value`), "reflect" (mirrored without the edge) or "edge".
DenseTensor pad(const DenseTensor& input, const std::vector<int64_t>& pads, const std::string& mode,
                float value);

// OneHot: result axis `axis` (non-negative, of the result's rank) of length `depth` holds
// on_value where it equals the index (negative indices count from depth), off_value elsewhere.
DenseTensor one_hot(const DenseTensor& indices, int64_t depth, int64_t axis, float off_value,
                    float on_value);

// EyeLike: a matrix of `shape` with ones on the diagonal k (above the main one for k > 0).
DenseTensor eye_like(const Shape& shape, int64_t k);

// ConvTranspose of input [N, C, spatial...] with weight [C, M/groups, kernel...] and an
// optional bias [M], on the axes' geometry (conv_transpose_axes).
DenseTensor conv_transpose(const DenseTensor& input, const DenseTensor& weight,
                           const DenseTensor* bias, int64_t groups,
                           const std::vector<passes::TransposedAxis>& axes);

// Resize's attributes, with ONNX's defaults.
struct ResizeOptions {
  std::string mode = "nearest";  // "nearest", "linear" or "cubic"
  std::string coordinate_mode = "half_pixel";
  std::string nearest_mode = "round_prefer_floor";
  double cubic_coeff_a = -0.75;
  bool exclude_outside = false;
  float extrapolation_value = 0.0f;
};

// Resize to `output_shape` with one scale per axis (output / input for sizes) and `roi`
// ([starts..., ends...], for tf_crop_and_resize; empty otherwise), as ONNX's reference
// interpolates.
DenseTensor resize(const DenseTensor& input, const Shape& output_shape,
                   const std::vector<double>& scales, const std::vector<double>& roi,
                   const ResizeOptions& options);

struct GridSampleOptions {
  std::string mode = "bilinear";       // "nearest", "bilinear", "bicubic"
  std::string padding_mode = "zeros";  // "zeros", "border", "reflection"
  bool align_corners = false;
};

// GridSample of an [N, C, H, W] input at grid [N, H_out, W_out, 2] of normalized (x, y):
// [N, C, H_out, W_out].
DenseTensor grid_sample(const DenseTensor& input, const DenseTensor& grid,
                        const GridSampleOptions& options);

// TopK along `axis`: the k largest (or smallest) values and their indices, equal values in index
// order.
std::vector<DenseTensor> top_k(const DenseTensor& input, int64_t axis, int64_t k, bool largest);

// Compress: the slices along `axis` (of the flattened input without one) whose condition is
// true.
DenseTensor compress(const DenseTensor& input, const DenseTensor& condition,
                     std::optional<int64_t> axis);

// NonZero: the coordinates of the nonzero elements, [rank, count], in row-major order.
DenseTensor non_zero(const DenseTensor& input);

// ReverseSequence: along `time_axis`, the first lengths[b] elements of each batch entry b
// reversed.
DenseTensor reverse_sequence(const DenseTensor& input, const DenseTensor& lengths,
                             int64_t batch_axis, int64_t time_axis);

// DynamicQuantizeLinear: y (uint8 values), y_scale and y_zero_point.
std::vector<DenseTensor> dynamic_quantize_linear(const DenseTensor& input);

// MeanVarianceNormalization over `axes` (non-negative).
DenseTensor mean_variance_normalization(const DenseTensor& input, const std::vector<int64_t>& axes);

// Det of each trailing square matrix.
DenseTensor determinant(const DenseTensor& input);

// LRN across channels of an NCHW tensor: x / (bias + alpha / size * sum of x^2 over the
// `size` channels around it)^beta, the window floor((size-1)/2) channels before and
// ceil((size-1)/2) after, cut at the ends.
DenseTensor lrn(const DenseTensor& input, int64_t size, float alpha, float beta, float bias);

// LayerNormalization's optional results over each row of `cols` trailing elements: the mean
// and 1 / sqrt(variance + epsilon), one per row, shaped `statistics_shape`.
std::vector<DenseTensor> layer_norm_statistics(const DenseTensor& input, int64_t cols,
                                               float epsilon, const Shape& statistics_shape);

// NegativeLogLikelihoodLoss of log-probabilities [N, C, d...] at `target` [N, d...]:
// -input[n, target, d...] * weight[target], 0 where the target is `ignore_index`; reduced by
// "none" (the target's shape), "sum" or "mean" (divided by the weights of the targets counted).
DenseTensor nll_loss(const DenseTensor& input, const DenseTensor& target, const DenseTensor* weight,
                     const std::string& reduction, std::optional<int64_t> ignore_index);

}  // namespace polyarch::interp
