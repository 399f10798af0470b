#pragma once
// An op's energy before it is simulated, for planning (the power-capped scheduler): its MACs at
// the tech table's MAC energy, one add per other arithmetic operation, and every byte it
// touches moved once through DRAM. Why not each kind's energy model: those price activity
// counts that only a simulation produces. The estimate prices the op's own dtype, or fp32 when
// the unit's native type decides (an overestimate for narrow units: safe under a cap).
#include <string>

#include "compiler/ir/op.h"
#include "sim/energy/tech_table.h"

namespace polyarch::sim {

double planned_op_joules(const ir::Op& op, const TechTable& tech, const std::string& dram_kind);

}  // namespace polyarch::sim
