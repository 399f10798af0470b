#include "compiler/frontend/ir_file.h"

#include <fstream>
#include <sstream>

#include "compiler/ir/ir_parser.h"

namespace polyarch::frontend {

ir::Graph load_ir_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw_bad_input({path.string(), 0, 0, ""}, "cannot read the IR file");
  std::ostringstream text;
  text << file.rdbuf();
  return ir::parse_ir(text.str(), path.string());
}

}  // namespace polyarch::frontend
