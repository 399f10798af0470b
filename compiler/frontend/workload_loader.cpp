#include "compiler/frontend/workload_loader.h"

#include <algorithm>
#include <cctype>

#include "base/path_exists.h"
#include "base/sha256.h"
#include "compiler/frontend/inline_workload.h"
#include "compiler/frontend/ir_file.h"
#include "compiler/frontend/layer_list.h"
#include "compiler/frontend/model_builder/model_builder.h"
#include "compiler/frontend/onnx/onnx_importer.h"
#include "compiler/frontend/scalesim_csv.h"
#include "compiler/passes/input_signs.h"

namespace polyarch::frontend {

ir::Graph load_workload(const std::filesystem::path& path) {
  if (looks_like_inline_workload(path.string()) && !path_exists(path)) {
    return inline_workload(path.string());
  }
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".yaml" || extension == ".yml") {
    // A top-level `model:` map is a model builder's input; anything else is a layer list.
    const ConfigNode root = load_config_with_base(path);
    const std::string default_name = path.stem().string();
    if (is_model_document(root)) {
      // Canonical already, so no pass pipeline runs: the input signs are marked here.
      ir::Graph graph = model_graph_from_config(root, default_name);
      passes::mark_signed_inputs(graph);
      return graph;
    }
    return layer_list_from_config(root, default_name);
  }
  if (extension == ".csv") return load_scalesim_csv(path);
  if (extension == ".onnx") return load_onnx(path);
  // An .ir file says its ops' input signs itself (input=, as the input-signs pass wrote them).
  if (extension == ".ir") return load_ir_file(path);
  throw_bad_input({path.string(), 0, 0, ""},
                  "unknown workload format '" + extension +
                      "' (expected a .yaml/.yml layer list or model, a SCALE-Sim .csv "
                      "topology, an .onnx model or an .ir file of the text IR)");
}

std::string workload_sha256(const std::filesystem::path& path) {
  if (looks_like_inline_workload(path.string()) && !path_exists(path)) {
    return sha256_hex(path.string());
  }
  return sha256_file_hex(path);
}

}  // namespace polyarch::frontend
