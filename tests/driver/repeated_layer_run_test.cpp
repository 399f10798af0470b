// A layer with `repeat: N` runs N times on one set of tensors: each copy moves what one run of
// the layer moves (it reads the same operands again and writes the same result), so the copies
// add time and DRAM traffic, while the footprint, and so the capacity a run needs, is one copy's.
#include <gtest/gtest.h>

#include <string>

#include "archs/soc/soc_config.h"
#include "base/config_tree.h"
#include "compiler/frontend/layer_list.h"
#include "driver/run.h"

namespace polyarch::driver {
namespace {

archs::SocConfig systolic_soc(const std::string& capacity_gib) {
  return archs::parse_soc_config(parse_config_text(
      "name: t\nclock_ghz: 1.0\n"
      "memory:\n  dram: {kind: ddr4, bandwidth_gbps: 25.6, latency_ns: 100, capacity_gib: " +
          capacity_gib +
          "}\n"
          "units:\n"
          "  - {name: mxu, kind: systolic, rows: 16, cols: 16, dataflow: ws, dtype: int8,\n"
          "     acc_dtype: int32, buffers: {ifmap_kib: 64, filter_kib: 64, ofmap_kib: 32}}\n",
      "arch.yaml"));
}

ir::Graph gemm_layer(const std::string& extra) {
  return frontend::layer_list_from_config(
      parse_config_text("layers: [{name: g, op: gemm, m: 256, n: 256, k: 512" + extra + "}]\n",
                        "w.yaml"),
      "w");
}

TEST(RepeatedLayerRun, EachCopyMovesWhatOneRunOfTheLayerMovesWithOneCopysFootprint) {
  const archs::SocConfig soc = systolic_soc("1");
  const sim::RunResult once = simulate_workload(soc, gemm_layer(""));
  const sim::RunResult thrice = simulate_workload(soc, gemm_layer(", repeat: 3"));
  ASSERT_EQ(once.ops.size(), 1u);
  ASSERT_EQ(thrice.ops.size(), 3u);
  for (const sim::OpResult& copy : thrice.ops) {
    EXPECT_EQ(copy.macs, once.ops[0].macs) << copy.name;
    EXPECT_EQ(copy.dram_bytes_read, once.ops[0].dram_bytes_read) << copy.name;
    EXPECT_EQ(copy.dram_bytes_written, once.ops[0].dram_bytes_written) << copy.name;
  }
  // One unit runs the copies one after another.
  EXPECT_GE(thrice.summary.total_cycles, 3 * once.ops[0].total_cycles);
  ASSERT_TRUE(once.memory && thrice.memory);
  EXPECT_EQ(thrice.memory->footprint_bytes, once.memory->footprint_bytes);
  // A x B (256 x 512, 512 x 256) and C (256 x 256) in int8, each on pages of its own.
  EXPECT_EQ(once.memory->footprint_bytes, 131072 + 131072 + 65536);
}

TEST(RepeatedLayerRun, TheSimpleQueueRefusesAWorkloadBeyondCapacityGibNamingTheKey) {
  // 2^-12 GiB = 262144 bytes: one copy's 327680 bytes do not fit, however few copies run.
  try {
    simulate_workload(systolic_soc("0.000244140625"), gemm_layer(", repeat: 2"));
    FAIL() << "expected a capacity error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    const std::string text = error.what();
    EXPECT_NE(text.find("needs 327680 bytes"), std::string::npos) << text;
    EXPECT_NE(text.find("capacity of 262144 bytes"), std::string::npos) << text;
    EXPECT_NE(text.find("arch.yaml:4"), std::string::npos) << text;
    EXPECT_NE(text.find("capacity_gib"), std::string::npos) << text;
  }
  EXPECT_NO_THROW(simulate_workload(systolic_soc("0.00030517578125"), gemm_layer(", repeat: 2")));
}

}  // namespace
}  // namespace polyarch::driver
