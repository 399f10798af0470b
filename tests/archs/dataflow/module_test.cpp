// The SystemC model: GEMM, conv and elementwise ops simulate against the shared DRAM and agree
// with the analytical estimate; configurations stay resident in the contexts.
#include "archs/dataflow/module.h"

#include <gtest/gtest.h>

#include "archs/dataflow/energy.h"
#include "archs/registry.h"
#include "tests/archs/dataflow/dataflow_fixture.h"

namespace polyarch::archs::dataflow::test {
namespace {

sim::OpResult run_one(const SocConfig& soc, const DataflowParams& params, const ir::Op& op) {
  return test_support::simulate_ops(system_of(soc, params), {op}).ops.front();
}

TEST(DataflowModule, GemmConvAndElementwiseSimulateNearTheEstimate) {
  const SocConfig soc = load_shipped("plasticine_like.yaml");
  const DataflowParams params = dataflow_params_of(soc);
  const ir::Op softmax = test_support::make_op("sm", ir::SoftmaxAttrs{1536, 128});
  for (const ir::Op& op :
       {gemm(512, 768, 768), gemm(128, 3072, 768), conv(64, 56, 64, 3, 1), conv(3, 224, 64, 7, 2),
        elementwise("add", 1 << 20, 2), elementwise("gelu", 1 << 20, 1), softmax}) {
    const sim::OpResult result = run_one(soc, params, op);
    const auto estimate = result.mapping["estimate_cycles"].get<int64_t>();
    EXPECT_GT(result.total_cycles, 0) << op.name;
    EXPECT_GE(result.total_cycles, result.compute_cycles) << op.name;
    EXPECT_NEAR(static_cast<double>(result.total_cycles), static_cast<double>(estimate),
                0.1 * static_cast<double>(estimate))
        << op.name << " " << result.mapping.dump();
    EXPECT_GT(result.dram_bytes_read, 0) << op.name;
    EXPECT_LE(result.utilization, 1.0) << op.name;
  }
}

TEST(DataflowModule, AResidentConfigurationIsNotLoadedAgain) {
  const SocConfig soc = load_shipped("plasticine_like.yaml");
  DataflowParams params = dataflow_params_of(soc);
  const ir::Op a = gemm(256, 256, 256);
  const ir::Op b = elementwise("relu", 1 << 16, 1);
  auto loads = [&](int64_t contexts) {
    params.config.contexts = contexts;
    const sim::RunResult run = test_support::simulate_ops(system_of(soc, params), {a, b, a, a});
    std::vector<int64_t> loaded;
    for (const sim::OpResult& op : run.ops) {
      loaded.push_back(op.mapping["configurations_loaded"].get<int64_t>());
    }
    return loaded;
  };
  EXPECT_EQ(loads(1), (std::vector<int64_t>{1, 1, 1, 0}));
  EXPECT_EQ(loads(2), (std::vector<int64_t>{1, 1, 0, 0}));
}

TEST(DataflowModule, EnergyByActionAndArea) {
  const SocConfig soc = load_shipped("plasticine_like.yaml");
  const DataflowParams params = dataflow_params_of(soc);
  const sim::ResolvedTech resolved = archs::resolve_tech("28nm");
  const sim::TechTable& tech = resolved.table;
  const sim::OpResult result = run_one(soc, params, gemm(512, 768, 768));
  const sim::EnergyByAction energy =
      dataflow_op_energy(params, result, dataflow_activity_of(result), {tech, "ddr3"});
  for (const char* action : {"mac", "register_file", "network", "scratchpad", "dram", "leakage"}) {
    EXPECT_GT(energy.at(action), 0.0) << action;
  }
  EXPECT_GT(energy.at("mac"), energy.at("alu"));
  // Plasticine: 113 mm^2 at 28 nm with its networks and controllers; the model's PEs and
  // scratchpads are the bulk of it.
  const double area = dataflow_area_mm2(params, tech);
  EXPECT_GT(area, 20.0);
  EXPECT_LT(area, 200.0);
}

}  // namespace
}  // namespace polyarch::archs::dataflow::test
