// A model on a SoC that cannot run all of it: the run names every op no unit supports at once,
// and `--only-supported` simulates the rest and lists what it left out.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

using polyarch::test_support::read_file;
using polyarch::test_support::run_polyarch;
using polyarch::test_support::source_path;

class OnlySupported : public polyarch::test_support::ScratchDirTest {
 protected:
  // BERT-tiny (2 layers) on a systolic-only SoC: the array runs its GEMMs; the three embedding
  // gathers, the embedding add and LayerNorm, and per layer attention's core, two residual adds
  // and two LayerNorms have no unit.
  std::string command() const {
    return "run --arch " + source_path("configs/arch/tpu_v1_like.yaml") + " --workload " +
           source_path("tests/data/onnx/bert_tiny.onnx") + " --out " + path("out");
  }
};

TEST_F(OnlySupported, WithoutItEveryUnsupportedOpIsNamedAtOnce) {
  const auto run = run_polyarch(command());
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("16 op(s) no unit supports (2 attention, 6 elementwise, 3 embedding, "
                            "5 norm)"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("units: mxu (systolic)"), std::string::npos) << run.output;
  EXPECT_FALSE(std::filesystem::exists(path("out/report.json")));  // nothing half-written
}

TEST_F(OnlySupported, WithItTheRestIsSimulatedAndTheSkippedOpsAreListed) {
  const auto run = run_polyarch(command() + " --only-supported");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("skipped 16 op(s) no unit supports"), std::string::npos)
      << run.output;
  const nlohmann::json report = nlohmann::json::parse(read_file(path("out/report.json")));
  ASSERT_EQ(report["skipped_ops"].size(), 16u);
  // Together the simulated and the skipped ops are the compiled model: 28 ops, 13,107,200 MACs
  // (compile's totals for this model).
  EXPECT_EQ(report["ops"].size() + report["skipped_ops"].size(), 28u);
  int64_t macs = 0;
  for (const auto& op : report["ops"]) macs += op["macs"].get<int64_t>();
  for (const auto& op : report["skipped_ops"]) macs += op["macs"].get<int64_t>();
  EXPECT_EQ(macs, 13107200);
  for (const auto& op : report["ops"]) EXPECT_EQ(op["unit"], "mxu");
}

TEST_F(OnlySupported, IsRefusedWithTheReferenceInterpreter) {
  const auto run = run_polyarch("run --functional --only-supported --workload " +
                                source_path("tests/data/onnx/bert_tiny.onnx"));
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("--only-supported"), std::string::npos) << run.output;
}

}  // namespace
