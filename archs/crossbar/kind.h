#pragma once
// `kind: crossbar` as the kind adapter (archs/kind_adapter.h) sees it: which ops the arrays run,
// its description, its estimate in seconds and weight-mapping space; the rest is shared.
#include <optional>
#include <string>
#include <vector>

#include "archs/crossbar/array_allocation.h"
#include "archs/crossbar/cost_model.h"
#include "archs/crossbar/crossbar_space.h"
#include "archs/crossbar/energy.h"
#include "archs/crossbar/params.h"
#include "archs/kind_adapter.h"
#include "archs/unit_config.h"
#include "base/config_tree.h"

namespace polyarch::archs::crossbar {

struct CrossbarKind {
  using Params = CrossbarParams;
  static constexpr std::string_view kName = "crossbar";

  static constexpr auto parse = &parse_crossbar_params;
  static const KeyTable& keys() { return crossbar_keys(); }
  static constexpr auto supports = &crossbar_supports;
  static ir::DType run_dtype(const CrossbarParams&, const ir::Op& op) {
    return crossbar_run_dtype(op);
  }
  // The digital input stage converts: each tile's input register file loads one element per
  // array row per cycle (an int8 code from the stored value) before its bits drive the rows.
  static int64_t conversions_per_cycle(const CrossbarParams& params, ir::DType, ir::DType) {
    return params.tiles * params.rows;
  }
  static sim::UnitFactory factory(const KindUnit<CrossbarKind>& unit, double soc_clock_ghz);
  // An op alone has the whole unit; within a program, its share of the arrays as the unit's
  // simulation allocates them (array_allocation.h) over the ops it could run.
  using ProgramShare = ArrayAllocation;
  static ArrayAllocation share_program(const KindUnit<CrossbarKind>& unit,
                                       const std::vector<const ir::Op*>& program,
                                       const OpSurroundings& at);
  static double estimate_seconds(const KindUnit<CrossbarKind>& unit, const ir::Op& op,
                                 const OpSurroundings& at, const ArrayAllocation& share = {});
  static std::optional<KindMappingQuery<CrossbarMappingProblem>> mapping_query(
      const KindUnit<CrossbarKind>& unit, const ir::Op& op, const OpSurroundings& at,
      const ArrayAllocation& share = {});
  static constexpr auto activity_of = &crossbar_activity_of;
  static constexpr auto op_energy = &crossbar_op_energy;
  // Array and ADC areas from the preset's published design, not the technology table.
  static constexpr auto area_mm2 = &crossbar_area_mm2;
};

using CrossbarUnitConfig = KindAdapter<CrossbarKind>;

}  // namespace polyarch::archs::crossbar
