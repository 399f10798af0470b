#include "compiler/frontend/onnx/onnx_importer.h"

#include "compiler/frontend/onnx/graph_builder.h"
#include "compiler/frontend/onnx/model_file.h"

namespace polyarch::frontend {

OnnxImport import_onnx(const std::filesystem::path& path) {
  const onnx::ModelProto model = onnx_import::read_model_file(path);
  onnx_import::Opsets opsets = onnx_import::model_opsets(model, path.string());
  const std::string& graph_name = model.graph().name();
  OnnxImport import;
  import.graph = ir::Graph(graph_name.empty() ? path.stem().string() : graph_name);
  import.opset = opsets.at("");
  import.producer = model.producer_name();
  if (!model.producer_version().empty()) import.producer += " " + model.producer_version();
  onnx_import::GraphBuilder(model.graph(), path, std::move(opsets)).build(import);
  return import;
}

ir::Graph load_onnx(const std::filesystem::path& path) { return import_onnx(path).graph; }

}  // namespace polyarch::frontend
