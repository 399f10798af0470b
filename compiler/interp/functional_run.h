#pragma once
// `polyarch run --functional`: compiles an ONNX model with the standard pipeline, feeds it
// .npy inputs, runs the reference interpreter and returns the .npy files to write. The CLI
// only parses arguments and writes what this returns.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "compiler/interp/mvm_engine.h"

namespace polyarch::interp {

struct FunctionalRequest {
  std::filesystem::path workload_path;
  // "x.npy" feeds the model's only graph input (or its first, when the others are named);
  // "NAME=x.npy" feeds graph input NAME.
  std::vector<std::string> inputs;
  std::vector<std::string> dump_tensors;  // tensor names of the compiled graph
  // A unit model's numerics for static-weight products (`--arch` with a crossbar unit): the
  // outputs are computed with it, and the run is compared with the ideal one.
  MvmEngine* mvm = nullptr;
  // `--precision P`: the ops compute in the formats the precision pass gives them
  // (format_emulation.h), and the run is compared with the fp32 run of the same graph.
  // Not together with `mvm`.
  std::optional<std::string> precision;
};

using NpyFile = std::pair<std::string, std::string>;  // file name, .npy bytes

struct FunctionalResult {
  std::vector<NpyFile> outputs;  // one per graph output: <name>.npy
  std::vector<NpyFile> tensors;  // one per dumped tensor
  // With an engine or a precision: the accuracy summary against the ideal fp32 run
  // (functional_accuracy.h).
  std::optional<nlohmann::ordered_json> accuracy;
};

// A tensor name as a file name: characters other than letters, digits, '.', '-' and '_'
// (exporters write "/encoder/layer.0/Add_output_0") become '_'.
std::string npy_file_name(const std::string& tensor_name);

FunctionalResult run_functional(const FunctionalRequest& request);

}  // namespace polyarch::interp
