#include "driver/validate_file.h"

#include "archs/soc/soc_config.h"
#include "archs/soc/soc_keys.h"
#include "base/config_tree.h"
#include "base/key_table.h"
#include "compiler/frontend/workload_loader.h"

namespace polyarch::driver {

std::string validate_file(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  if (extension == ".csv" || extension == ".onnx" || extension == ".ir") {
    ir::Graph graph = frontend::load_workload(path);
    return "workload, " + std::to_string(graph.op_count()) + " ops";
  }
  ConfigNode root = load_config_with_base(path);
  if (archs::looks_like_arch(root)) {
    archs::SocConfig soc = archs::parse_soc_config(root);
    return "arch '" + soc.name + "', " + std::to_string(soc.units.size()) + " unit(s)";
  }
  if (root.find("layers") != nullptr || root.find("model") != nullptr) {
    ir::Graph graph = frontend::load_workload(path);
    return "workload, " + std::to_string(graph.op_count()) + " ops";
  }
  throw_bad_input({path.string(), 0, 0, ""},
                  "cannot tell the file's type: an arch file has `units:`, a layer list has "
                  "`layers:`, a model file `model:`");
}

std::string describe_keys(const std::string& name) {
  return key_table_text(archs::key_table_named(name));
}

}  // namespace polyarch::driver
