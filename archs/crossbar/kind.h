#pragma once
// `kind: crossbar` as the kind adapter (archs/kind_adapter.h) sees it: which ops the arrays run,
// its description, its estimate in seconds and weight-mapping space; the rest is shared.
#include <optional>
#include <string>

#include "archs/crossbar/crossbar_space.h"
#include "archs/crossbar/params.h"
#include "archs/kind_adapter.h"

namespace polyarch::archs::crossbar {

struct CrossbarKind {
  using Params = CrossbarParams;
  static constexpr std::string_view kName = "crossbar";

  static Params parse(MapReader& unit_reader, const std::string& name);
  static bool supports(const Params& params, const ir::Op& op);
  static nlohmann::ordered_json describe(const Params& params);
  static sim::UnitFactory factory(const KindUnit<CrossbarKind>& unit, double soc_clock_ghz);
  static double estimate_seconds(const KindUnit<CrossbarKind>& unit, const ir::Op& op,
                                 const OpSurroundings& at);
  static std::optional<KindMappingQuery<CrossbarMappingProblem>> mapping_query(
      const KindUnit<CrossbarKind>& unit, const ir::Op& op, const OpSurroundings& at);
  static std::optional<sim::EnergyByAction> op_energy(const Params& params, const sim::OpResult& op,
                                                      const sim::EnergyContext& context);
  static std::optional<double> area_mm2(const Params& params, const sim::TechTable& tech);
};

using CrossbarUnitConfig = KindAdapter<CrossbarKind>;

}  // namespace polyarch::archs::crossbar
