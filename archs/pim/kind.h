#pragma once
// `kind: pim` as the kind adapter (archs/kind_adapter.h) sees it: which ops the bank PUs run, its
// description, its estimate on the DRAM command clock and GEMV mapping space; the rest is shared.
#include <optional>
#include <string>

#include "archs/kind_adapter.h"
#include "archs/pim/params.h"
#include "archs/pim/pim_space.h"

namespace polyarch::archs::pim {

struct PimKind {
  using Params = PimParams;
  static constexpr std::string_view kName = "pim";

  static Params parse(MapReader& unit_reader, const std::string& name);
  static bool supports(const Params& params, const ir::Op& op);
  static nlohmann::ordered_json describe(const Params& params);
  static sim::UnitFactory factory(const KindUnit<PimKind>& unit, double soc_clock_ghz);
  static double estimate_seconds(const KindUnit<PimKind>& unit, const ir::Op& op,
                                 const OpSurroundings& at);
  static std::optional<KindMappingQuery<PimGemmMappingProblem>> mapping_query(
      const KindUnit<PimKind>& unit, const ir::Op& op, const OpSurroundings& at);
  static std::optional<sim::EnergyByAction> op_energy(const Params& params, const sim::OpResult& op,
                                                      const sim::EnergyContext& context);
  static std::optional<double> area_mm2(const Params& params, const sim::TechTable& tech);
};

using PimUnitConfig = KindAdapter<PimKind>;

}  // namespace polyarch::archs::pim
