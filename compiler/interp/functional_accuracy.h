#pragma once
// How far a functional run with a unit model's numerics (an MvmEngine), or with the ops in the
// formats --precision gave them, strays from the ideal fp32 run of the same graph on the same
// inputs: per graph output and per Gemm/Conv2d (and Attention) layer.
// `polyarch run --functional --arch A` and `--precision P` write it as DIR/functional.json.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "compiler/interp/dense_tensor.h"
#include "compiler/interp/mvm_engine.h"
#include "compiler/ir/graph.h"

namespace polyarch::interp {

// Error of `actual` against `ideal` (same shape): max |a - i|, that over max |i| (relative), and
// the RMS of a - i.
struct TensorError {
  double max_abs_error = 0.0;
  double max_rel_error = 0.0;
  double rms_error = 0.0;
};
TensorError tensor_error(const DenseTensor& actual, const DenseTensor& ideal);

// For a classifier output [rows, classes] (rank 2, classes > 1): the fraction of rows whose
// arg-max class is the same in both; negative when the output is not such a tensor.
double top1_agreement(const DenseTensor& actual, const DenseTensor& ideal);

// The result tensors of the graph's Gemm and Conv2d ops (the layers an engine may run), and
// with `with_attention` its Attention ops', with the ops' names, in topological order.
struct LayerTensor {
  std::string op_name;
  std::string op_kind;
  std::string tensor_name;
  ir::NodeId op_id = 0;
};
std::vector<LayerTensor> layer_tensors(const ir::Graph& graph, bool with_attention = false);

// The summary (schema polyarch.functional/1): the engine's description, per-output errors and
// top-1 agreement, per-layer errors of the layer's result tensor (accumulated through the
// network) joined with the engine's per-op statistics. `ideal` and `actual` hold the graph
// outputs first (`output_count` of them), then the layers' tensors in `layers`' order.
nlohmann::ordered_json accuracy_summary(const std::string& workload, const MvmEngine& engine,
                                        const std::vector<NamedTensor>& ideal,
                                        const std::vector<NamedTensor>& actual,
                                        std::size_t output_count,
                                        const std::vector<LayerTensor>& layers);

// The same summary for a run whose ops computed in the formats `--precision` gave them:
// "precision" (the scheme's description, format_emulation.h) replaces "unit", and each layer
// says the formats its op computed and stored in (op_formats).
nlohmann::ordered_json precision_accuracy_summary(
    const std::string& workload, const nlohmann::ordered_json& precision, const ir::Graph& graph,
    const std::vector<NamedTensor>& ideal, const std::vector<NamedTensor>& actual,
    std::size_t output_count, const std::vector<LayerTensor>& layers);

}  // namespace polyarch::interp
