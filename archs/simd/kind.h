#pragma once
// `kind: simd` as the kind adapter (archs/kind_adapter.h) sees it: which ops the cores run, its
// description, its analytical estimate and GEMM mapping space; the rest is shared.
#include <optional>
#include <string>

#include "archs/kind_adapter.h"
#include "archs/simd/gemm_space.h"
#include "archs/simd/params.h"

namespace polyarch::archs::simd {

struct SimdKind {
  using Params = SimdParams;
  static constexpr std::string_view kName = "simd";

  static Params parse(MapReader& unit_reader, const std::string& name);
  static bool supports(const Params& params, const ir::Op& op);
  static nlohmann::ordered_json describe(const Params& params);
  static sim::UnitFactory factory(const KindUnit<SimdKind>& unit, double soc_clock_ghz);
  static double estimate_seconds(const KindUnit<SimdKind>& unit, const ir::Op& op,
                                 const OpSurroundings& at);
  static std::optional<KindMappingQuery<SimdGemmMappingProblem>> mapping_query(
      const KindUnit<SimdKind>& unit, const ir::Op& op, const OpSurroundings& at);
  static std::optional<sim::EnergyByAction> op_energy(const Params& params, const sim::OpResult& op,
                                                      const sim::EnergyContext& context);
  static std::optional<double> area_mm2(const Params& params, const sim::TechTable& tech);
};

using SimdUnitConfig = KindAdapter<SimdKind>;

}  // namespace polyarch::archs::simd
