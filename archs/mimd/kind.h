#pragma once
// `kind: mimd` as the kind adapter (archs/kind_adapter.h) sees it: which ops the cores run, its
// description, its analytical estimate and GEMM mapping space; the rest is shared.
#include <optional>
#include <string>

#include "archs/kind_adapter.h"
#include "archs/mimd/activity.h"
#include "archs/mimd/energy.h"
#include "archs/mimd/mapper.h"
#include "archs/mimd/mimd_space.h"
#include "archs/mimd/params.h"
#include "archs/unit_config.h"
#include "base/config_tree.h"

namespace polyarch::archs::mimd {

struct MimdKind {
  using Params = MimdParams;
  static constexpr std::string_view kName = "mimd";

  static constexpr auto parse = &parse_mimd_params;
  static constexpr auto supports = &mimd_supports;
  static constexpr bool kReadsKvFormats = true;
  static ir::DType run_dtype(const MimdParams& params, const ir::Op& op) {
    return params.run_dtype(op);
  }
  static int64_t conversions_per_cycle(const MimdParams& params, ir::DType, ir::DType) {
    return params.conversions_per_cycle();
  }
  static const KeyTable& keys() { return mimd_keys(); }
  static sim::UnitFactory factory(const KindUnit<MimdKind>& unit, double soc_clock_ghz);
  static double estimate_seconds(const KindUnit<MimdKind>& unit, const ir::Op& op,
                                 const OpSurroundings& at);
  static std::optional<KindMappingQuery<MimdGemmMappingProblem>> mapping_query(
      const KindUnit<MimdKind>& unit, const ir::Op& op, const OpSurroundings& at);
  static constexpr auto activity_of = &mimd_activity_of;
  static constexpr auto op_energy = &mimd_op_energy;
  static constexpr auto area_mm2 = &mimd_area_mm2;
  static constexpr auto clocked_bits = &mimd_clocked_bits;
};

using MimdUnitConfig = KindAdapter<MimdKind>;

}  // namespace polyarch::archs::mimd
