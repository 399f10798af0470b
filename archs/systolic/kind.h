#pragma once
// `kind: systolic` as the kind adapter (archs/kind_adapter.h) sees it: which ops the array runs,
// its description, its analytical estimate and mapping space; the rest is shared.
#include <memory>
#include <optional>
#include <string>

#include "archs/kind_adapter.h"
#include "archs/systolic/mapper.h"
#include "archs/systolic/params.h"

namespace polyarch::archs::systolic {

struct SystolicKind {
  using Params = SystolicParams;
  static constexpr std::string_view kName = "systolic";

  static Params parse(MapReader& unit_reader, const std::string& name);
  static bool supports(const Params& params, const ir::Op& op);
  static nlohmann::ordered_json describe(const Params& params);
  static sim::UnitFactory factory(const KindUnit<SystolicKind>& unit, double soc_clock_ghz);
  static double estimate_seconds(const KindUnit<SystolicKind>& unit, const ir::Op& op,
                                 const OpSurroundings& at);
  static std::optional<KindMappingQuery<SystolicMappingProblem>> mapping_query(
      const KindUnit<SystolicKind>& unit, const ir::Op& op, const OpSurroundings& at);
  static std::optional<sim::EnergyByAction> op_energy(const Params& params, const sim::OpResult& op,
                                                      const sim::EnergyContext& context);
  static std::optional<double> area_mm2(const Params& params, const sim::TechTable& tech);
};

using SystolicUnitConfig = KindAdapter<SystolicKind>;

}  // namespace polyarch::archs::systolic
