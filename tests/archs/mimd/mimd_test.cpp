// The mimd unit: parameters, the SystemC model against its estimate, closed forms, and NoC link
// contention between cores.
#include <gtest/gtest.h>

#include "archs/mimd/kind.h"
#include "archs/soc/soc_config.h"
#include "tests/archs/mimd/run_mimd_op.h"
#include "tests/base/error_capture.h"
#include "tests/support/ir_builders.h"

namespace polyarch::archs::mimd {
namespace {

using test_support::make_op;

SocConfig cpu64() {
  return load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/cpu64_like.yaml");
}

MimdParams params_of(const SocConfig& soc) { return mimd_params_of(soc); }

sim::OpResult run_one(const SocConfig& soc, const MimdParams& params, const ir::Op& op) {
  return run_mimd_op(soc, params, op);
}

std::string error_of(const std::string& text) {
  return testing::error_text([&] { parse_soc_config(parse_config_text(text, "arch.yaml")); });
}

const std::string kArch = R"(name: t
clock_ghz: 1.0
memory: {dram: {bandwidth_gbps: 100}}
units:
  - name: cpu
    kind: mimd
    count: 12
    core: {vector_lanes: 8, local_kib: 512}
    noc: {topology: mesh, columns: 4, link_bytes_per_cycle: 16, memory_ports: 2}
)";

TEST(MimdParams, ParsesCoresAndNoc) {
  const MimdParams params = params_of(parse_soc_config(parse_config_text(kArch, "a.yaml")));
  EXPECT_EQ(params.count, 12);
  EXPECT_EQ(params.noc.columns, 4);
  EXPECT_EQ(params.core_elements_per_cycle(ir::DType::kFp32), 16);
  EXPECT_EQ(params.core_elements_per_cycle(ir::DType::kBf16), 32);
  EXPECT_EQ(params.port_node(1), 6);
}

TEST(MimdParams, MeshColumnsMustDivideTheCores) {
  std::string text = kArch;
  text.replace(text.find("columns: 4"), 10, "columns: 5");
  const std::string error = error_of(text);
  EXPECT_NE(error.find("arch.yaml:9"), std::string::npos) << error;
  EXPECT_NE(error.find("columns"), std::string::npos) << error;
}

TEST(MimdParams, AnUnknownTopologySuggestsTheNearest) {
  std::string text = kArch;
  text.replace(text.find("topology: mesh"), 14, "topology: rinq");
  EXPECT_NE(error_of(text).find("ring"), std::string::npos);
}

TEST(MimdModule, SimulationMatchesTheEstimateWithinFivePercent) {
  const SocConfig soc = cpu64();
  const MimdParams params = params_of(soc);
  const std::vector<ir::Op> ops = {
      make_op("gemm", ir::GemmAttrs{.m = 4096, .n = 4096, .k = 4096}),
      make_op("gemv", ir::GemmAttrs{.m = 1, .n = 16384, .k = 8192}),
      make_op("ln", ir::NormAttrs{ir::NormKind::kLayerNorm, 16384, 4096}),
      make_op("gelu", ir::ElementwiseAttrs{"gelu", 1 << 26, 1}),
      make_op("decode", ir::AttentionAttrs{.b = 8, .h = 32, .kv_heads = 32, .s = 1,
                                           .kv_len = 4096, .d = 128, .causal = false})};
  for (const ir::Op& op : ops) {
    const sim::OpResult result = run_one(soc, params, op);
    const auto estimate = result.mapping["estimate_cycles"].get<double>();
    EXPECT_NEAR(static_cast<double>(result.total_cycles), estimate, 0.05 * estimate)
        << op.name << " " << result.mapping.dump();
  }
}

TEST(MimdModule, ALargeGemmRunsAtTheCoresVectorPeakTimesPartitionEfficiency) {
  const SocConfig soc = cpu64();
  const MimdParams params = params_of(soc);
  ir::Op op = make_op("gemm", ir::GemmAttrs{.m = 4096, .n = 4096, .k = 4096});
  op.dtype = ir::DType::kFp32;
  const sim::OpResult result = run_one(soc, params, op);
  const double peak_macs = static_cast<double>(params.count) * 32.0;  // 2 pipes x 16 lanes
  const double ideal = static_cast<double>(result.macs) / peak_macs / result.mapping_efficiency;
  EXPECT_NEAR(static_cast<double>(result.total_cycles), ideal, 0.05 * ideal);
  EXPECT_EQ(result.bound, "compute");
}

// Four cores in a row behind one memory port at node 0: the cores further out share the links
// next to the port, so streaming takes far longer than with a port per core (no shared link).
TEST(MimdModule, CoresSharingNocLinksToOnePortContend) {
  SocConfig soc = parse_soc_config(parse_config_text(R"(name: row
clock_ghz: 1.0
memory: {dram: {bandwidth_gbps: 0}}
units:
  - name: cpu
    kind: mimd
    count: 4
    core: {vector_lanes: 64, vector_units: 4, local_kib: 256}
    noc: {topology: mesh, columns: 4, link_bytes_per_cycle: 8, hop_latency_cycles: 1,
          memory_ports: 1}
)",
                                                     "row.yaml"));
  const ir::Op op = make_op("add", ir::ElementwiseAttrs{"add", 1 << 22, 2});
  MimdParams one_port = params_of(soc);
  MimdParams port_each = one_port;
  port_each.memory_ports = 4;
  const sim::OpResult shared = run_one(soc, one_port, op);
  const sim::OpResult separate = run_one(soc, port_each, op);
  EXPECT_EQ(shared.bound, "noc");
  // Every byte crosses the port's one link (node 0 -> 1 for three cores): ~3x the per-core time.
  EXPECT_GT(static_cast<double>(shared.total_cycles),
            2.5 * static_cast<double>(separate.total_cycles));
  EXPECT_GT(shared.mapping["noc_link_bytes"].get<int64_t>(),
            separate.mapping["noc_link_bytes"].get<int64_t>());
}

}  // namespace
}  // namespace polyarch::archs::mimd
