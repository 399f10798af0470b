#include "compiler/interp/functional_accuracy.h"

#include <algorithm>
#include <cmath>

#include "base/error.h"
#include "compiler/interp/format_emulation.h"

namespace polyarch::interp {

TensorError tensor_error(const DenseTensor& actual, const DenseTensor& ideal) {
  if (actual.shape != ideal.shape || actual.values.size() != ideal.values.size()) {
    throw_runtime({}, "functional accuracy: the runs' tensors differ in shape");
  }
  TensorError error;
  double scale = 0.0, squares = 0.0;
  for (std::size_t i = 0; i < ideal.values.size(); ++i) {
    const double difference = double{actual.values[i]} - double{ideal.values[i]};
    error.max_abs_error = std::max(error.max_abs_error, std::fabs(difference));
    scale = std::max(scale, std::fabs(double{ideal.values[i]}));
    squares += difference * difference;
  }
  error.max_rel_error = scale == 0.0 ? error.max_abs_error : error.max_abs_error / scale;
  if (!ideal.values.empty()) error.rms_error = std::sqrt(squares / double(ideal.values.size()));
  return error;
}

double top1_agreement(const DenseTensor& actual, const DenseTensor& ideal) {
  if (ideal.shape.size() != 2 || ideal.shape[1] < 2 || ideal.shape[0] < 1 ||
      actual.shape != ideal.shape) {
    return -1.0;
  }
  const int64_t rows = ideal.shape[0];
  const int64_t classes = ideal.shape[1];
  int64_t agreeing = 0;
  for (int64_t row = 0; row < rows; ++row) {
    const auto arg_max = [&](const DenseTensor& tensor) {
      const auto first = tensor.values.begin() + row * classes;
      return std::max_element(first, first + classes) - first;
    };
    if (arg_max(actual) == arg_max(ideal)) ++agreeing;
  }
  return double(agreeing) / double(rows);
}

std::vector<LayerTensor> layer_tensors(const ir::Graph& graph, bool with_attention) {
  std::vector<LayerTensor> layers;
  for (ir::NodeId op_id : graph.topological_ops()) {
    const ir::Op& op = graph.op(op_id);
    const bool is_layer = op.kind() == ir::OpKind::kGemm || op.kind() == ir::OpKind::kConv2d ||
                          (with_attention && op.kind() == ir::OpKind::kAttention);
    if (!is_layer) continue;
    const std::vector<ir::NodeId> results = graph.outputs_of(op_id);
    if (results.empty()) continue;
    layers.push_back({op.name, ir::op_type_name(op), graph.tensor(results[0]).name, op_id});
  }
  return layers;
}

namespace {

nlohmann::ordered_json error_json(const TensorError& error) {
  return {{"max_abs_error", error.max_abs_error},
          {"max_rel_error", error.max_rel_error},
          {"rms_error", error.rms_error}};
}

}  // namespace

namespace {

// The summary with `header` (the engine's or the scheme's description) under `header_key`;
// `annotate` adds what the numerics say about a layer.
template <typename Annotate>
nlohmann::ordered_json summary_of(const std::string& workload, const std::string& header_key,
                                  const nlohmann::ordered_json& header,
                                  const std::vector<NamedTensor>& ideal,
                                  const std::vector<NamedTensor>& actual, std::size_t output_count,
                                  const std::vector<LayerTensor>& layers, Annotate annotate) {
  if (ideal.size() != actual.size() || ideal.size() != output_count + layers.size()) {
    throw_runtime({}, "functional accuracy: the runs returned different tensors");
  }
  nlohmann::ordered_json summary = {
      {"schema", "polyarch.functional/1"}, {"workload", workload}, {header_key, header}};
  summary["outputs"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < output_count; ++i) {
    nlohmann::ordered_json entry = {{"name", ideal[i].name}, {"shape", ideal[i].tensor.shape}};
    entry.update(error_json(tensor_error(actual[i].tensor, ideal[i].tensor)));
    const double agreement = top1_agreement(actual[i].tensor, ideal[i].tensor);
    if (agreement >= 0.0) entry["top1_agreement"] = agreement;
    summary["outputs"].push_back(entry);
  }
  summary["layers"] = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const std::size_t slot = output_count + i;
    nlohmann::ordered_json entry = {
        {"op", layers[i].op_name}, {"kind", layers[i].op_kind}, {"tensor", layers[i].tensor_name}};
    entry.update(error_json(tensor_error(actual[slot].tensor, ideal[slot].tensor)));
    annotate(layers[i], entry);
    summary["layers"].push_back(entry);
  }
  return summary;
}

}  // namespace

nlohmann::ordered_json accuracy_summary(const std::string& workload, const MvmEngine& engine,
                                        const std::vector<NamedTensor>& ideal,
                                        const std::vector<NamedTensor>& actual,
                                        std::size_t output_count,
                                        const std::vector<LayerTensor>& layers) {
  return summary_of(workload, "unit", engine.describe(), ideal, actual, output_count, layers,
                    [&](const LayerTensor& layer, nlohmann::ordered_json& entry) {
                      const nlohmann::ordered_json stats = engine.op_stats(layer.op_name);
                      entry["on_unit"] = !stats.is_null();
                      if (!stats.is_null()) entry["unit_stats"] = stats;
                    });
}

nlohmann::ordered_json precision_accuracy_summary(
    const std::string& workload, const nlohmann::ordered_json& precision, const ir::Graph& graph,
    const std::vector<NamedTensor>& ideal, const std::vector<NamedTensor>& actual,
    std::size_t output_count, const std::vector<LayerTensor>& layers) {
  return summary_of(workload, "precision", precision, ideal, actual, output_count, layers,
                    [&](const LayerTensor& layer, nlohmann::ordered_json& entry) {
                      entry.update(op_formats(graph.op(layer.op_id)));
                    });
}

}  // namespace polyarch::interp
