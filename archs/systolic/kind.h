#pragma once
// `kind: systolic` as the kind adapter (archs/kind_adapter.h) sees it: which ops the array runs,
// its description, its analytical estimate and mapping space; the rest is shared.
#include <memory>
#include <optional>
#include <string>

#include "archs/kind_adapter.h"
#include "archs/systolic/energy.h"
#include "archs/systolic/mapper.h"
#include "archs/systolic/operand_types.h"
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
  // Which types the array runs, converts or refuses: operand_types.h.
  static ir::DType run_dtype(const SystolicParams& params, const ir::Op& op) {
    return systolic_run_dtype(params, op);
  }
  static std::optional<std::string> type_refusal(const SystolicParams& params,
                                                 const ir::Op& op) {
    return systolic_type_refusal(params, op);
  }
  static int64_t conversions_per_cycle(const SystolicParams& params, ir::DType, ir::DType) {
    return systolic_conversions_per_cycle(params);
  }
  static constexpr auto op_energy = &systolic_op_energy;
  static constexpr auto area_mm2 = &systolic_area_mm2;
  static constexpr auto clocked_bits = &systolic_clocked_bits;
};

using SystolicUnitConfig = KindAdapter<SystolicKind>;

}  // namespace polyarch::archs::systolic
