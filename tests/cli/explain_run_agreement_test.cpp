// `compile --explain` and `run --search exhaustive` on the same (arch, op): the same bound word,
// and latencies within the estimate's tolerance, on every unit kind. Each kind classifies the
// estimate's predicted busy times and the simulation's measured ones with one rule. Every kind
// also gives the op its reason in the report: a mapping in its own terms and a roofline point
// that no ceiling lets it beat (attained FLOP/s and DRAM bytes/s, or a PIM unit's bytes beside
// its banks, at most their peaks).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

using polyarch::test_support::read_file;
using polyarch::test_support::run_polyarch;
using polyarch::test_support::source_path;

class ExplainRunAgreement : public polyarch::test_support::ScratchDirTest {};

struct Chosen {
  double latency_s = 0;
  std::string bound;
};

Chosen explained(const std::string& arch, const std::string& workload) {
  const auto explain = run_polyarch("compile --workload " + workload + " --arch " +
                                    source_path(arch) + " --explain --no-cache");
  EXPECT_EQ(explain.exit_code, 0) << explain.output;
  std::smatch match;
  const std::regex chosen(R"(chosen\s+\S+\s+\S+\s+latency (\S+) s .* bound (\S+))");
  EXPECT_TRUE(std::regex_search(explain.output, match, chosen)) << explain.output;
  return {match.size() > 2 ? std::stod(match[1]) : 0.0, match.size() > 2 ? match[2].str() : ""};
}

struct Case {
  const char* arch;
  const char* workload;
  double tolerance;
};

TEST_F(ExplainRunAgreement, TheChosenMappingRunsWithTheSameBoundAndNearlyTheSameLatency) {
  // The estimates leave out contention and the simulated DRAM queue: 15 % covers it on one op.
  // The MIMD estimate also leaves out the NoC's queueing behind each memory port and the PIM
  // estimate the host's command issue between bank passes: 25 % for those kinds.
  const Case cases[] = {
      {"configs/arch/h100_like.yaml", "gemm:4096,4096,4096:fp16", 0.15},
      {"configs/arch/h100_like.yaml", "gemm:64,4096,4096:fp16", 0.15},
      {"configs/arch/edge_dsp_16.yaml", "gemm:512,512,512", 0.15},
      {"configs/arch/tpu_v1_like.yaml", "gemm:512,512,512", 0.15},
      {"configs/arch/tpu_v1_like.yaml", "gemm:256,4096,1024", 0.15},
      {"configs/arch/edge_os_32x32.yaml", "gemm:1024,1024,64", 0.15},
      {"configs/arch/cpu64_like.yaml", "gemm:2048,2048,2048", 0.25},
      {"configs/arch/cpu64_like.yaml", "gemm:64,4096,4096", 0.25},
      {"configs/arch/cpu64_like.yaml", "gemm:1024,1024,1024:fp32", 0.25},
      {"configs/arch/hbm_pim_like.yaml", "gemm:1,4096,4096:fp16", 0.25},
      {"configs/arch/aim_gddr6_like.yaml", "gemm:1,4096,4096", 0.25},
      {"configs/arch/upmem_like.yaml", "gemm:4,4096,1024", 0.25},
      {"configs/arch/isaac_like.yaml", "gemm:256,1024,1024", 0.15},
      {"configs/arch/neurosim_rram_like.yaml", "gemm:128,512,512", 0.15},
      {"configs/arch/plasticine_like.yaml", "gemm:1024,1024,1024", 0.15},
      {"configs/arch/hycube_like.yaml", "gemm:64,64,64", 0.15},
  };
  for (const auto& [arch, workload, tolerance] : cases) {
    const Chosen estimate = explained(arch, workload);
    const auto run = run_polyarch("run --arch " + source_path(arch) + " --workload " + workload +
                                  " --search exhaustive --no-cache --quiet --out " + path("run"));
    ASSERT_EQ(run.exit_code, 0) << run.output;
    const nlohmann::json op = nlohmann::json::parse(read_file(path("run/report.json")))["ops"][0];
    EXPECT_EQ(op.at("bound"), estimate.bound) << arch << " " << workload;
    const double simulated = op.at("latency_s").get<double>();
    EXPECT_NEAR(estimate.latency_s, simulated, tolerance * simulated) << arch << " " << workload;
    EXPECT_TRUE(op.at("mapping").is_object() && !op.at("mapping").empty()) << arch;
    const nlohmann::json& roofline = op.at("roofline");
    ASSERT_TRUE(roofline.is_object()) << arch << " " << workload;
    EXPECT_LE(roofline.at("attained_flops_per_s").get<double>(),
              roofline.at("peak_flops_per_s").get<double>() * (1 + 1e-9))
        << arch << " " << workload;
    // Units beside DRAM (PIM) are bounded by the banks' internal bandwidth, the rest by DRAM's.
    const std::string traffic = roofline.contains("internal_bytes") ? "internal" : "dram";
    ASSERT_TRUE(roofline.contains(traffic + "_bytes_per_s")) << arch << " " << workload;
    if (roofline.at(traffic + "_bytes_per_s").is_number()) {
      EXPECT_LE(roofline.at("attained_" + traffic + "_bytes_per_s").get<double>(),
                roofline.at(traffic + "_bytes_per_s").get<double>() * (1 + 1e-9))
          << arch << " " << workload;
    }
  }
}

TEST_F(ExplainRunAgreement, CompileJsonNamesTheUnitBoundAndLatencyTheRunHas) {
  const std::string arch = source_path("configs/arch/tpu_v1_like.yaml");
  const std::string workload = "gemm:512,512,512";
  const auto compile = run_polyarch("compile --workload " + workload + " --arch " + arch +
                                    " --explain --no-cache --json " + path("compile.json"));
  ASSERT_EQ(compile.exit_code, 0) << compile.output;
  const nlohmann::json explain = nlohmann::json::parse(read_file(path("compile.json")))["explain"];
  EXPECT_EQ(explain["objective"], "latency");
  ASSERT_EQ(explain["ops"].size(), 1u);
  const nlohmann::json& decision = explain["ops"][0];
  const auto run = run_polyarch("run --arch " + arch + " --workload " + workload +
                                " --search exhaustive --no-cache --quiet --out " + path("run"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json op = nlohmann::json::parse(read_file(path("run/report.json")))["ops"][0];
  EXPECT_EQ(decision["op"], op["name"]);
  EXPECT_EQ(decision["chosen"], op["unit"]);
  const nlohmann::json& best = decision["options"][0];
  EXPECT_EQ(best["unit"], op["unit"]);
  EXPECT_EQ(best["bound"], op["bound"]);
  const double simulated = op["latency_s"].get<double>();
  EXPECT_NEAR(best["latency_s"].get<double>(), simulated, 0.15 * simulated);
  EXPECT_FALSE(best["mapping"].is_null());
  EXPECT_EQ(decision["why"].get<std::string>().rfind(op["unit"].get<std::string>() + " is ", 0), 0u)
      << decision["why"];
}

TEST_F(ExplainRunAgreement, ACrossbarHoldingEveryLayerIsExplainedWithEachLayersShareOfItsArrays) {
  // NeuroSim's VGG-8 chip holds all eight layers' weights: each layer runs on its own arrays
  // with the spare ones as copies. Explained alone, a layer would take the whole chip (94 or more
  // copies of every convolution); within its program it gets the share the run gives it.
  const std::string arch = source_path("tests/validation/crossbar_neurosim_vgg8_fps/arch.yaml");
  const std::string workload = source_path("tests/validation/crossbar_neurosim_vgg8_fps/workload.yaml");
  const auto compile = run_polyarch("compile --workload " + workload + " --arch " + arch +
                                    " --explain --no-cache --json " + path("compile.json"));
  ASSERT_EQ(compile.exit_code, 0) << compile.output;
  const auto run = run_polyarch("run --arch " + arch + " --workload " + workload +
                                " --search exhaustive --no-cache --quiet --out " + path("run"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const nlohmann::json explain = nlohmann::json::parse(read_file(path("compile.json")))["explain"];
  const nlohmann::json report = nlohmann::json::parse(read_file(path("run/report.json")));
  ASSERT_EQ(explain["ops"].size(), report["ops"].size());
  int convolutions = 0;
  for (std::size_t i = 0; i < report["ops"].size(); ++i) {
    const nlohmann::json& op = report["ops"][i];
    const nlohmann::json& best = explain["ops"][i]["options"][0];
    ASSERT_EQ(explain["ops"][i]["op"], op["name"]);
    EXPECT_EQ(best["mapping"],
              "replicas=" + std::to_string(op["mapping"]["replicas"].get<int64_t>()))
        << op["name"];
    if (op["kind"] != "conv2d") continue;
    ++convolutions;
    EXPECT_EQ(best["bound"], op["bound"]) << op["name"];
    const double simulated = op["latency_s"].get<double>();
    EXPECT_NEAR(best["latency_s"].get<double>(), simulated, 0.15 * simulated) << op["name"];
  }
  EXPECT_EQ(convolutions, 6);
}

}  // namespace
