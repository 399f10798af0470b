// Mapping is the compiler's job: `run`, `compare` and `sweep` search each op's mapping unless
// `--mapping fixed` asks for each unit's configured one, and report.json says which mode ran.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/support/run_polyarch.h"
#include "tests/support/scratch_dir_test.h"

namespace {

using polyarch::test_support::read_file;
using polyarch::test_support::run_polyarch;
using polyarch::test_support::source_path;

class MappingModeTest : public polyarch::test_support::ScratchDirTest {
 protected:
  // report.json of `run` on the TPU-v1-like array with `mapping_flags`.
  nlohmann::json run_gemm(const std::string& out, const std::string& mapping_flags) {
    const auto output =
        run_polyarch("run --quiet --arch " + source_path("configs/arch/tpu_v1_like.yaml") +
                     " --workload gemm:4096,4096,4096 --out " + path(out) + " " + mapping_flags);
    EXPECT_EQ(output.exit_code, 0) << output.output;
    return nlohmann::json::parse(read_file(path(out) + "/report.json"));
  }
};

// The configured output-stationary mapping of a 256x256 array spills and re-reads partial sums
// for K = 4096; the searched one does not. Neither beats the array's compute bound: M N K MACs
// at 256 x 256 MACs per cycle and 0.7 GHz, 1.498 ms.
TEST_F(MappingModeTest, RunSearchesByDefaultAndRunsTheConfiguredMappingWhenFixed) {
  const nlohmann::json searched = run_gemm("searched", "--cache-dir " + path("cache"));
  const nlohmann::json fixed = run_gemm("fixed", "--mapping fixed");
  EXPECT_EQ(searched["mapping"]["mode"], "searched");
  EXPECT_EQ(searched["mapping"]["searcher"], "exhaustive");
  EXPECT_EQ(searched["mapping"]["objective"], "latency");
  EXPECT_EQ(fixed["mapping"], nlohmann::json({{"mode", "fixed"}}));
  const double compute_bound_s = 4096.0 * 4096 * 4096 / (256.0 * 256) / 0.7e9;
  const double searched_s = searched["summary"]["latency_s"];
  const double fixed_s = fixed["summary"]["latency_s"];
  EXPECT_GE(searched_s, compute_bound_s);
  EXPECT_GE(fixed_s, compute_bound_s);
  EXPECT_LT(searched_s * 10, fixed_s);
}

TEST_F(MappingModeTest, SearchOptionsWithFixedMappingAreRefused) {
  const auto output = run_polyarch("run --arch " + source_path("configs/arch/tpu_v1_like.yaml") +
                                   " --workload gemm:64,64,64 --mapping fixed --search random");
  EXPECT_EQ(output.exit_code, 2) << output.output;
  EXPECT_NE(output.output.find("--search searches mappings, but --mapping fixed"),
            std::string::npos)
      << output.output;
  const auto unknown = run_polyarch("run --arch " + source_path("configs/arch/tpu_v1_like.yaml") +
                                    " --workload gemm:64,64,64 --mapping best");
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("--mapping best: expected fixed or searched"), std::string::npos)
      << unknown.output;
}

TEST_F(MappingModeTest, CompareMapsEveryArchitectureTheSameWay) {
  const auto output = run_polyarch("compare --workload gemm:512,512,512 --arch " +
                                   source_path("configs/arch/tpu_v1_like.yaml") + " --arch " +
                                   source_path("configs/arch/h100_like.yaml") + " --out " +
                                   path("cmp") + " --cache-dir " + path("cache"));
  ASSERT_EQ(output.exit_code, 0) << output.output;
  for (const std::string arch : {"tpu-v1-like", "h100-like"}) {
    const nlohmann::json report =
        nlohmann::json::parse(read_file(path("cmp") + "/" + arch + "/report.json"));
    EXPECT_EQ(report["mapping"]["mode"], "searched") << arch;
  }
}

}  // namespace
