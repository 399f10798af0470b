#include "compiler/frontend/onnx/onnx_importer.h"

#include "compiler/frontend/onnx/graph_builder.h"
#include "compiler/frontend/onnx/model_file.h"
#include "compiler/frontend/onnx/opset_upgrade.h"

namespace polyarch::frontend {

OnnxImport import_onnx(const std::filesystem::path& path) {
  onnx::ModelProto model = onnx_import::read_model_file(path);
  const int64_t file_opset = onnx_import::declared_opsets(model, path.string()).at("");
  if (file_opset >= onnx_import::kMinConvertibleOnnxOpset && file_opset < kMinOnnxOpset) {
    model = onnx_import::upgraded_model(model, file_opset, kMinOnnxOpset, path.string());
  }
  onnx_import::Opsets opsets = onnx_import::model_opsets(model, path.string());
  const std::string& graph_name = model.graph().name();
  OnnxImport import;
  import.graph = ir::Graph(graph_name.empty() ? path.stem().string() : graph_name);
  import.opset = opsets.at("");
  import.file_opset = file_opset;
  import.producer = model.producer_name();
  if (!model.producer_version().empty()) import.producer += " " + model.producer_version();
  onnx_import::GraphBuilder(model.graph(), path, std::move(opsets)).build(import);
  return import;
}

ir::Graph load_onnx(const std::filesystem::path& path) { return import_onnx(path).graph; }

}  // namespace polyarch::frontend
