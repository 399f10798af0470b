#pragma once
// `kind: dataflow` as the kind adapter (archs/kind_adapter.h) sees it: which ops the fabric places,
// its description, its modulo-scheduled estimate and GEMM mapping space; its mapping cache is
// per-unit state shared by the estimates and every model the factory makes; the rest is shared.
#include <optional>
#include <string>

#include "archs/dataflow/activity.h"
#include "archs/dataflow/dataflow_space.h"
#include "archs/dataflow/energy.h"
#include "archs/dataflow/params.h"
#include "archs/kind_adapter.h"
#include "archs/unit_config.h"
#include "base/config_tree.h"

namespace polyarch::archs::dataflow {

struct DataflowKind {
  using Params = DataflowParams;
  // Placements and schedules, shared by the estimates and every model the factory makes.
  using State = MappingCache;
  static constexpr std::string_view kName = "dataflow";

  static constexpr auto parse = &parse_dataflow_params;
  static bool supports(const Params& params, const ir::Op& op);
  static ir::DType run_dtype(const DataflowParams& params, const ir::Op& op) {
    return params.run_dtype(op);
  }
  static int64_t conversions_per_cycle(const DataflowParams& params, ir::DType, ir::DType) {
    return params.conversions_per_cycle();
  }
  static const KeyTable& keys() { return dataflow_keys(); }
  static sim::UnitFactory factory(const KindUnit<DataflowKind>& unit, double soc_clock_ghz);
  static double estimate_seconds(const KindUnit<DataflowKind>& unit, const ir::Op& op,
                                 const OpSurroundings& at);
  static std::optional<KindMappingQuery<DataflowGemmMappingProblem>> mapping_query(
      const KindUnit<DataflowKind>& unit, const ir::Op& op, const OpSurroundings& at);
  static constexpr auto activity_of = &dataflow_activity_of;
  static constexpr auto op_energy = &dataflow_op_energy;
  static constexpr auto area_mm2 = &dataflow_area_mm2;
  static constexpr auto clocked_bits = &dataflow_clocked_bits;
};

using DataflowUnitConfig = KindAdapter<DataflowKind>;

}  // namespace polyarch::archs::dataflow
