#pragma once
// `kind: simd` as the kind adapter (archs/kind_adapter.h) sees it: which ops the cores run, its
// description, its analytical estimate and its GEMM and attention mapping spaces; the rest is
// shared.
#include <optional>
#include <string>

#include "archs/kind_adapter.h"
#include "archs/simd/activity.h"
#include "archs/simd/attention_space.h"
#include "archs/simd/cost_model.h"
#include "archs/simd/energy.h"
#include "archs/simd/gemm_space.h"
#include "archs/simd/params.h"
#include "archs/unit_config.h"
#include "base/config_tree.h"

namespace polyarch::archs::simd {

struct SimdKind {
  using Params = SimdParams;
  static constexpr std::string_view kName = "simd";
  // NHWC: its lanes form im2col rows from contiguous channels.
  static constexpr ir::Layout kConvLayout = ir::Layout::kNhwc;

  static constexpr auto parse = &parse_simd_params;
  static constexpr auto supports = &simd_supports;
  static constexpr bool kReadsWeightFormats = true;
  static constexpr bool kReadsKvFormats = true;
  static ir::DType run_dtype(const SimdParams& params, const ir::Op& op) {
    return params.run_dtype(op);
  }
  static int64_t conversions_per_cycle(const SimdParams& params, ir::DType stored,
                                       ir::DType run) {
    return params.conversions_per_cycle(stored, run);
  }
  static const KeyTable& keys() { return simd_keys(); }
  static sim::UnitFactory factory(const KindUnit<SimdKind>& unit, double soc_clock_ghz);
  static double estimate_seconds(const KindUnit<SimdKind>& unit, const ir::Op& op,
                                 const OpSurroundings& at);
  // GEMM and convolution tilings (gemm_space.h); attention's form and tiling (attention_space.h).
  static std::optional<KindMappingQuery<SimdMappingProblem>> mapping_query(
      const KindUnit<SimdKind>& unit, const ir::Op& op, const OpSurroundings& at);
  static constexpr auto activity_of = &simd_activity_of;
  static constexpr auto op_energy = &simd_op_energy;
  static constexpr auto area_mm2 = &simd_area_mm2;
};

using SimdUnitConfig = KindAdapter<SimdKind>;

}  // namespace polyarch::archs::simd
