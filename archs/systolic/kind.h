#pragma once
// `kind: systolic` as the kind adapter (archs/kind_adapter.h) sees it: which ops the array runs,
// its description, its analytical estimate and mapping space; the rest is shared.
#include <memory>
#include <optional>
#include <string>

#include "archs/kind_adapter.h"
#include "archs/systolic/energy.h"
#include "archs/systolic/mapper.h"
#include "archs/systolic/params.h"
#include "archs/unit_config.h"
#include "base/config_tree.h"

namespace polyarch::archs::systolic {

struct SystolicKind {
  using Params = SystolicParams;
  static constexpr std::string_view kName = "systolic";
  // NHWC: im2col rows stream channels-innermost into the array.
  static constexpr ir::Layout kConvLayout = ir::Layout::kNhwc;

  static constexpr auto parse = &parse_systolic_params;
  static bool supports(const ir::Op& op);
  static const KeyTable& keys() { return systolic_keys(); }
  static sim::UnitFactory factory(const KindUnit<SystolicKind>& unit, double soc_clock_ghz);
  static double estimate_seconds(const KindUnit<SystolicKind>& unit, const ir::Op& op,
                                 const OpSurroundings& at);
  static std::optional<KindMappingQuery<SystolicMappingProblem>> mapping_query(
      const KindUnit<SystolicKind>& unit, const ir::Op& op, const OpSurroundings& at);
  // The array multiplies only its operand type: an op of another type is converted to it.
  static ir::DType run_dtype(const SystolicParams& params, const ir::Op&) { return params.dtype; }
  static constexpr auto op_energy = &systolic_op_energy;
  static constexpr auto area_mm2 = &systolic_area_mm2;
};

using SystolicUnitConfig = KindAdapter<SystolicKind>;

}  // namespace polyarch::archs::systolic
