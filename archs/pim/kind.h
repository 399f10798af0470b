#pragma once
// `kind: pim` as the kind adapter (archs/kind_adapter.h) sees it: which ops the bank PUs run, its
// description, its estimate on the DRAM command clock and GEMV mapping space; the rest is shared.
#include <optional>
#include <string>

#include "archs/kind_adapter.h"
#include "archs/pim/cost_model.h"
#include "archs/pim/energy.h"
#include "archs/pim/params.h"
#include "archs/pim/pim_space.h"
#include "archs/unit_config.h"
#include "base/config_tree.h"

namespace polyarch::archs::pim {

struct PimKind {
  using Params = PimParams;
  static constexpr std::string_view kName = "pim";

  static constexpr auto parse = &parse_pim_params;
  static void bind_soc_memory(PimParams& params, const sim::DramSpec& dram,
                              const sim::DramView& path) {
    pim::bind_soc_memory(params, dram, path);
  }
  static constexpr auto supports = &pim_supports;
  // The processing units compute only their type: a GEMV stored in another (an fp8 or int4
  // op, weights in a weight format) streams its bytes as stored and the lanes convert each
  // element, in the plan's timing (cost_model.cpp); other types keep being run as it.
  static ir::DType run_dtype(const PimParams& params, const ir::Op&) { return params.dtype; }
  static constexpr bool kReadsWeightFormats = true;
  static constexpr bool kPricesConversions = true;
  static constexpr auto type_refusal = &pim_type_refusal;
  static const KeyTable& keys() { return pim_keys(); }
  static sim::UnitFactory factory(const KindUnit<PimKind>& unit, double soc_clock_ghz);
  static double estimate_seconds(const KindUnit<PimKind>& unit, const ir::Op& op,
                                 const OpSurroundings& at);
  static std::optional<KindMappingQuery<PimGemmMappingProblem>> mapping_query(
      const KindUnit<PimKind>& unit, const ir::Op& op, const OpSurroundings& at);
  static constexpr auto activity_of = &pim_activity_of;
  static constexpr auto op_energy = &pim_op_energy;
  static constexpr auto area_mm2 = &pim_area_mm2;
};

using PimUnitConfig = KindAdapter<PimKind>;

}  // namespace polyarch::archs::pim
