#pragma once
// The ONNX test models that carry weights and ONNX Runtime reference files
// (tests/data/onnx/PROVENANCE.md), and the error measure the interpreter is held to.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "compiler/frontend/workload_loader.h"
#include "compiler/interp/interpreter.h"
#include "compiler/interp/npy_io.h"

namespace polyarch::interp::testing {

inline std::string onnx_data(const std::string& file) {
  return std::string(POLYARCH_SOURCE_DIR) + "/tests/data/onnx/" + file;
}

struct ReferenceModel {
  std::string model;
  std::string input_file;  // the int8 QDQ model shares tiny_cnn's input
  std::string output_file;
};

inline std::vector<ReferenceModel> reference_models() {
  return {{"tiny_cnn", "tiny_cnn_input.npy", "tiny_cnn_output.npy"},
          {"tiny_cnn_unfolded", "tiny_cnn_unfolded_input.npy", "tiny_cnn_unfolded_output.npy"},
          {"tiny_cnn_int8_qdq", "tiny_cnn_input.npy", "tiny_cnn_int8_qdq_output.npy"},
          {"bert_tiny", "bert_tiny_input.npy", "bert_tiny_output.npy"},
          {"squeezenet1_1", "squeezenet1_1_input.npy", "squeezenet1_1_output.npy"}};
}

inline ir::Graph imported(const ReferenceModel& model) {
  return frontend::load_workload(onnx_data(model.model + ".onnx"));
}

// The reference input fed to the graph's only input.
inline std::vector<NamedTensor> reference_inputs(const ir::Graph& graph,
                                                 const ReferenceModel& model) {
  NpyArray input = read_npy(onnx_data(model.input_file));
  input.tensor.dtype = input.dtype;
  return {{graph.tensor(graph_inputs(graph).at(0)).name, input.tensor}};
}

// max |actual - expected| / max |expected|; infinite when the shapes differ.
inline double relative_error(const DenseTensor& actual, const DenseTensor& expected) {
  if (actual.shape != expected.shape) return INFINITY;
  double error = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < expected.values.size(); ++i) {
    error = std::max(error, double{std::fabs(actual.values[i] - expected.values[i])});
    scale = std::max(scale, double{std::fabs(expected.values[i])});
  }
  return scale == 0.0 ? error : error / scale;
}

}  // namespace polyarch::interp::testing
