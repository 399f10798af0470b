#include "compiler/interp/functional_run.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

#include "base/error.h"
#include "compiler/frontend/workload_loader.h"
#include "compiler/interp/format_emulation.h"
#include "compiler/interp/functional_accuracy.h"
#include "compiler/interp/interpreter.h"
#include "compiler/interp/npy_io.h"
#include "compiler/lower/pipeline.h"
#include "compiler/passes/tensor_values.h"

namespace polyarch::interp {

namespace {

struct InputSpec {
  std::optional<std::string> name;  // nullopt: the graph's unnamed input
  std::filesystem::path path;
};

InputSpec parse_input_spec(const std::string& text) {
  // A path may itself hold '='; only a name before the first '=' that is not a path counts.
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || text.find('/') < equals) {
    return {std::nullopt, text};
  }
  return {text.substr(0, equals), text.substr(equals + 1)};
}

// Integer inputs (token ids) need integer files and real inputs real ones: a float file fed to
// an embedding lookup is almost always the wrong file.
void check_element_type(const ir::Tensor& input, const NpyArray& array,
                        const std::filesystem::path& path) {
  const bool wants_integer = !passes::is_float_dtype(input.dtype);
  const bool has_integer = !passes::is_float_dtype(array.dtype);
  if (wants_integer != has_integer) {
    throw_bad_input({path.string(), 0, 0, ""},
                    "graph input '" + input.name + "' is " +
                        std::string(ir::dtype_name(input.dtype)) + " but the file holds " +
                        std::string(ir::dtype_name(array.dtype)) +
                        (wants_integer ? " (token ids are read as int64 .npy)" : ""));
  }
}

std::vector<NamedTensor> read_inputs(const ir::Graph& graph,
                                     const std::vector<std::string>& specs) {
  const std::vector<ir::NodeId> graph_input_ids = graph_inputs(graph);
  std::vector<NamedTensor> fed;
  for (const std::string& text : specs) {
    const InputSpec spec = parse_input_spec(text);
    const ir::Tensor* target = nullptr;
    std::string names;
    for (ir::NodeId id : graph_input_ids) {
      const ir::Tensor& tensor = graph.tensor(id);
      names += (names.empty() ? "" : ", ") + tensor.name;
      const bool already_fed = std::any_of(
          fed.begin(), fed.end(), [&](const NamedTensor& f) { return f.name == tensor.name; });
      if (spec.name ? tensor.name == *spec.name : !already_fed && target == nullptr) {
        target = &tensor;
      }
    }
    if (target == nullptr) {
      throw_bad_input(
          {}, spec.name
                  ? "the model has no graph input '" + *spec.name + "' (its inputs: " + names + ")"
                  : "--input " + text + ": every graph input (" + names + ") already has a value");
    }
    const NpyArray array = read_npy(spec.path);
    check_element_type(*target, array, spec.path);
    fed.push_back({target->name, array.tensor});
  }
  return fed;
}

// The engine's or the formats' run (outputs and layer tensors) against the ideal fp32 run's.
// `actual` holds the graph outputs first, then (after `skipped` dumped tensors) the layers'
// tensors.
nlohmann::ordered_json run_accuracy(const FunctionalRequest& request,
                                    const lower::PipelineOptions& options, const ir::Graph& graph,
                                    const std::vector<NamedTensor>& inputs,
                                    const std::vector<NamedTensor>& actual,
                                    std::size_t output_count, std::size_t skipped,
                                    const std::vector<LayerTensor>& layers) {
  std::vector<std::string> names;
  std::vector<NamedTensor> compared(actual.begin(), actual.begin() + output_count);
  compared.insert(compared.end(), actual.begin() + output_count + skipped, actual.end());
  for (const NamedTensor& tensor : compared) names.push_back(tensor.name);
  const std::vector<NamedTensor> ideal = evaluate_tensors(graph, inputs, names);
  if (request.mvm == nullptr) {
    return precision_accuracy_summary(
        request.workload_path.string(),
        precision_description(*request.precision, options.precision, graph), graph, ideal, compared,
        output_count, layers);
  }
  return accuracy_summary(request.workload_path.string(), *request.mvm, ideal, compared,
                          output_count, layers);
}

// The pipeline's options: the precision pass's policy where --precision gives one, checked
// against what the interpreter emulates.
lower::PipelineOptions pipeline_options(const FunctionalRequest& request) {
  lower::PipelineOptions options;
  if (request.precision) {
    if (request.mvm != nullptr) {
      throw_runtime({}, "a functional run takes an MVM engine or a precision, not both");
    }
    options.precision = passes::parse_precision_policy(*request.precision);
    check_emulated_policy(options.precision, *request.precision);
  }
  return options;
}

}  // namespace

std::string npy_file_name(const std::string& tensor_name) {
  std::string file;
  for (char c : tensor_name) {
    const bool plain =
        std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_';
    file += plain ? c : '_';
  }
  // "." and ".." would name directories.
  if (file.find_first_not_of('.') == std::string::npos) file = "_" + file;
  return file + ".npy";
}

FunctionalResult run_functional(const FunctionalRequest& request) {
  ir::Graph graph = frontend::load_workload(request.workload_path);
  if (!graph.functional_available()) {
    throw_bad_input(
        {request.workload_path.string(), 0, 0, ""},
        "functional execution is unavailable: " + graph.functional_unavailable_reason());
  }
  // Layer lists, SCALE-Sim topologies and model builders give canonical ops with shapes only.
  if (!lower::needs_lowering(graph)) {
    throw_bad_input({request.workload_path.string(), 0, 0, ""},
                    "functional execution needs an ONNX model with weights; this workload "
                    "describes shapes only");
  }
  const lower::PipelineOptions options = pipeline_options(request);
  lower::standard_pipeline(options).run(graph);
  const std::vector<NamedTensor> inputs = read_inputs(graph, request.inputs);
  std::vector<std::string> names;
  for (ir::NodeId id : graph_outputs(graph)) names.push_back(graph.tensor(id).name);
  const std::size_t output_count = names.size();
  names.insert(names.end(), request.dump_tensors.begin(), request.dump_tensors.end());
  const bool compared = request.mvm != nullptr || request.precision.has_value();
  // Attention is a layer where formats apply to it (KV caches); an engine runs only products.
  const std::vector<LayerTensor> layers =
      compared ? layer_tensors(graph, request.precision.has_value()) : std::vector<LayerTensor>{};
  for (const LayerTensor& layer : layers) names.push_back(layer.tensor_name);
  std::vector<NamedTensor> values =
      evaluate_tensors(graph, inputs, names, request.mvm,
                       request.precision ? Numerics::kOpFormats : Numerics::kFp32);
  FunctionalResult result;
  if (compared) {
    result.accuracy = run_accuracy(request, options, graph, inputs, values, output_count,
                                   request.dump_tensors.size(), layers);
    values.resize(values.size() - layers.size());
  }
  // (outputs/ or tensors/, file name) -> the tensor written there
  std::map<std::pair<bool, std::string>, std::string> tensor_of_file;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const bool is_output = i < output_count;
    const std::string file = npy_file_name(values[i].name);
    const auto [known, added] = tensor_of_file.emplace(std::pair(is_output, file), values[i].name);
    if (!added && known->second == values[i].name) continue;  // asked for twice
    if (!added) {
      throw_bad_input({}, "tensors '" + known->second + "' and '" + values[i].name +
                              "' would both be written as " + file);
    }
    auto& files = is_output ? result.outputs : result.tensors;
    files.emplace_back(file, npy_bytes(values[i].tensor));
  }
  return result;
}

}  // namespace polyarch::interp
