// libFuzzer harness: ONNX model bytes -> import -> the compile pipeline (fold constants, infer
// shapes, DCE, lower), as `polyarch compile` runs it. The importer reads a path (external data
// files sit beside the model), so each input is written to a file of this process's own.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "compiler/frontend/onnx/onnx_importer.h"
#include "compiler/lower/pipeline.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

const std::filesystem::path& model_path() {
  static const std::filesystem::path path = [] {
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("polyarch_fuzz_onnx_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    return dir / "model.onnx";
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  return polyarch::fuzz::parse_expecting_only_located_errors(
      data, size, [](const std::string& bytes) {
        std::ofstream(model_path(), std::ios::binary | std::ios::trunc) << bytes;
        polyarch::ir::Graph graph = polyarch::frontend::load_onnx(model_path());
        polyarch::lower::standard_pipeline().run(graph);
      });
}
