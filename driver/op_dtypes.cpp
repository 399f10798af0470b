#include "driver/op_dtypes.h"

#include <map>

namespace polyarch::driver {

void record_op_dtypes(const archs::SocConfig& soc, const ir::Graph& graph, sim::RunResult& result) {
  std::map<std::string, const ir::Op*> ops;
  for (ir::NodeId id : graph.topological_ops()) ops.emplace(graph.op(id).name, &graph.op(id));
  std::map<std::string, const archs::UnitConfig*> units;
  for (const auto& unit : soc.units) units.emplace(unit->name(), unit.get());
  for (sim::OpResult& op_result : result.ops) {
    const auto op = ops.find(op_result.name);
    const auto unit = units.find(op_result.unit);
    if (op == ops.end() || unit == units.end()) continue;
    const ir::DType ran = unit->second->run_dtype(*op->second);
    op_result.dtype = std::string(ir::dtype_name(ran));
    const std::optional<ir::DType>& given = op->second->dtype;
    op_result.converted_from = given && *given != ran ? std::string(ir::dtype_name(*given)) : "";
  }
}

}  // namespace polyarch::driver
