#pragma once
// `kind: mimd` as the kind adapter (archs/kind_adapter.h) sees it: which ops the cores run, its
// description, its analytical estimate and GEMM mapping space; the rest is shared.
#include <optional>
#include <string>

#include "archs/kind_adapter.h"
#include "archs/mimd/mimd_space.h"
#include "archs/mimd/params.h"

namespace polyarch::archs::mimd {

struct MimdKind {
  using Params = MimdParams;
  static constexpr std::string_view kName = "mimd";

  static Params parse(MapReader& unit_reader, const std::string& name);
  static bool supports(const Params& params, const ir::Op& op);
  static nlohmann::ordered_json describe(const Params& params);
  static sim::UnitFactory factory(const KindUnit<MimdKind>& unit, double soc_clock_ghz);
  static double estimate_seconds(const KindUnit<MimdKind>& unit, const ir::Op& op,
                                 const OpSurroundings& at);
  static std::optional<KindMappingQuery<MimdGemmMappingProblem>> mapping_query(
      const KindUnit<MimdKind>& unit, const ir::Op& op, const OpSurroundings& at);
  static std::optional<sim::EnergyByAction> op_energy(const Params& params, const sim::OpResult& op,
                                                      const sim::EnergyContext& context);
  static std::optional<double> area_mm2(const Params& params, const sim::TechTable& tech);
};

using MimdUnitConfig = KindAdapter<MimdKind>;

}  // namespace polyarch::archs::mimd
