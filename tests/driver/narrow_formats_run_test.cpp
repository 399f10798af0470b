// Narrow formats through a whole run: what quantised weights, a quantised KV cache and fp8
// GEMMs move and how fast they run on h100_like, each against a bound derived from the bytes or
// the engine rates, and which units refuse or convert what they do not run natively.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "archs/soc/soc_config.h"
#include "base/config_tree.h"
#include "base/error.h"
#include "compiler/frontend/layer_list.h"
#include "compiler/frontend/onnx/element_type.h"
#include "compiler/frontend/workload_loader.h"
#include "compiler/lower/pipeline.h"
#include "driver/run.h"
#include "reports/json_report.h"
#include "tests/base/error_capture.h"
#include "tests/compiler/onnx_test_models.h"

namespace polyarch::driver {
namespace {

using ::testing::HasSubstr;

archs::SocConfig shipped(const std::string& name) {
  return archs::load_soc_config(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/" + name +
                                ".yaml");
}

ir::Graph layers(const std::string& list) {
  return frontend::layer_list_from_config(parse_config_text("layers:\n" + list, "w.yaml"), "w");
}

// Fits attention forms as `polyarch run` does, then simulates.
sim::RunResult run_on(const archs::SocConfig& soc, ir::Graph graph) {
  fit_graph_to_soc(soc, graph, true, false);
  return simulate_workload(soc, graph);
}

constexpr const char* kGemv = "  - {name: g, op: gemm, m: 1, n: 4096, k: 4096, dtype: bf16";

// Decode's GEMV streams its weights: int4 in groups of 128 moves 4096 x 4096 / 2 bytes of codes
// and 4096 x 32 fp16 scales instead of 4096 x 4096 x 2 bytes, plus the bf16 vector in.
TEST(NarrowFormatsRun, Int4WeightsMoveTheirStoredBytesAndDecodeRunsNearTheirRatio) {
  const archs::SocConfig soc = shipped("h100_like");
  const sim::RunResult bf16 = run_on(soc, layers(std::string(kGemv) + "}\n"));
  const sim::RunResult int4 =
      run_on(soc, layers(std::string(kGemv) + ", weight_dtype: int4, weight_group: 128}\n"));
  ASSERT_EQ(int4.ops.size(), 1u);
  EXPECT_EQ(int4.ops[0].dram_bytes_read, 4096 * 2 + 4096 * 4096 / 2 + 4096 * 32 * 2);
  EXPECT_EQ(bf16.ops[0].dram_bytes_read, 4096 * 2 + 4096 * 4096 * 2);
  EXPECT_EQ(int4.ops[0].dtype, "bf16");  // computed in bf16 after widening
  // DRAM-bound: 8.65 MB against 33.6 MB is 0.26 of the bytes; with the 1 us launch and the
  // DRAM latency added to both (~1.5 us of ~11.5 us), the ratio stays below 0.45.
  EXPECT_LT(int4.summary.latency_s, 0.45 * bf16.summary.latency_s);
  EXPECT_GT(int4.summary.latency_s, 0.26 * bf16.summary.latency_s);
  // The widening shows as lane work beside the engine's MACs.
  EXPECT_GT(int4.ops[0].mapping["activity"]["vector_ops"]["bf16"].get<int64_t>(), 0);
}

// The same GEMV as an ONNX model (opset 21) stores it: int4 codes, an fp32 scale per block of
// 128 along K, DequantizeLinear into MatMul. The gemm reads what a weight-only kernel reads:
// the fp32 vector (4096 x 4), the codes (4096 x 4096 / 2) and one fp16 scale per block and
// column (32 x 4096 x 2); the DequantizeLinear, folded into it, moves nothing.
TEST(NarrowFormatsRun, AnOnnxInt4WeightOnlyModelReadsTheStoredCodes) {
  namespace onnx_testing = frontend::onnx_testing;
  onnx::ModelProto model;
  model.set_ir_version(10);
  auto* opset = model.add_opset_import();
  opset->set_domain("");
  opset->set_version(21);
  onnx::GraphProto* graph = model.mutable_graph();
  graph->set_name("gemv");
  onnx_testing::set_tensor_type(graph->add_input(), "x", {1, 4096});
  onnx_testing::set_tensor_type(graph->add_output(), "y", {1, 4096});
  onnx::TensorProto* codes = graph->add_initializer();
  codes->set_name("codes");
  codes->set_data_type(frontend::onnx_import::kInt4);
  codes->add_dims(4096);
  codes->add_dims(4096);
  codes->set_raw_data(std::string(4096 * 4096 / 2, '\x21'));
  onnx::TensorProto* scales = graph->add_initializer();
  scales->set_name("scales");
  scales->set_data_type(onnx::TensorProto::FLOAT);
  scales->add_dims(32);
  scales->add_dims(4096);
  scales->set_raw_data(std::string(32 * 4096 * 4, '\0'));
  onnx::NodeProto* dequantize =
      onnx_testing::add_node(graph, "DequantizeLinear", {"codes", "scales"}, {"w"}, "dq");
  using Attribute = std::pair<const char*, int64_t>;
  for (const auto& [name, value] : {Attribute{"axis", 0}, Attribute{"block_size", 128}}) {
    auto* attribute = dequantize->add_attribute();
    attribute->set_name(name);
    attribute->set_type(onnx::AttributeProto::INT);
    attribute->set_i(value);
  }
  onnx_testing::add_node(graph, "MatMul", {"x", "w"}, {"y"}, "gemv");
  const std::string path = ::testing::TempDir() + "/int4_gemv.onnx";
  std::ofstream(path, std::ios::binary) << model.SerializeAsString();
  ir::Graph imported = frontend::load_workload(path);
  lower::standard_pipeline().run(imported);
  const sim::RunResult result = run_on(shipped("h100_like"), std::move(imported));
  int64_t read = 0;
  for (const sim::OpResult& op : result.ops) {
    if (op.name == "dq") EXPECT_EQ(op.dram_bytes_read, 0);
    read += op.dram_bytes_read;
  }
  EXPECT_EQ(read, 4096 * 4 + 4096 * 4096 / 2 + 32 * 4096 * 2);
}

// A compute-bound GEMM: h100_like's tensor cores run fp8 at twice the bf16 rate (1979 against
// 989 TFLOPS), and fp8 operands are half the bytes, so fp8 takes at most 0.55 of bf16's time.
TEST(NarrowFormatsRun, Fp8GemmRunsNativelyAtTwiceTheBf16Rate) {
  const archs::SocConfig soc = shipped("h100_like");
  const std::string gemm = "  - {name: g, op: gemm, m: 8192, n: 8192, k: 8192, dtype: ";
  const sim::RunResult bf16 = run_on(soc, layers(gemm + "bf16}\n"));
  const sim::RunResult fp8 = run_on(soc, layers(gemm + "fp8}\n"));
  EXPECT_EQ(fp8.ops[0].dtype, "fp8_e4m3");
  EXPECT_EQ(fp8.ops[0].converted_from, "");
  EXPECT_LT(fp8.summary.latency_s, 0.55 * bf16.summary.latency_s);
  EXPECT_GT(fp8.summary.latency_s, 0.45 * bf16.summary.latency_s);
}

// Decode attention over a 16k-token cache: an fp8 cache moves half the K and V bytes, read once
// by the fused kernel (the unfused form is not offered for a quantised cache).
TEST(NarrowFormatsRun, AnFp8KvCacheHalvesTheCachesBytesAndRunsFused) {
  const archs::SocConfig soc = shipped("h100_like");
  const std::string attention =
      "  - {name: a, op: attention, h: 32, kv_heads: 8, s: 1, kv_len: 16384, d: 128, dtype: bf16";
  const sim::RunResult bf16 = run_on(soc, layers(attention + "}\n"));
  const sim::RunResult fp8 = run_on(soc, layers(attention + ", kv_dtype: fp8}\n"));
  ASSERT_EQ(fp8.ops.size(), 1u);
  EXPECT_EQ(fp8.ops[0].mapping["kernel"], "flash_attention");
  const int64_t q = 32 * 128 * 2;
  const int64_t cache = 2 * 8 * 16384 * 128;  // K and V elements
  EXPECT_EQ(fp8.ops[0].dram_bytes_read, q + cache);
  EXPECT_LT(fp8.summary.latency_s, 0.75 * bf16.summary.latency_s);
}

// mixed_soc's GPU-like unit has no fp8 rate: an fp8 GEMM runs converted to its bf16, marked.
TEST(NarrowFormatsRun, AnEngineWithoutTheTypeConvertsAndSaysSo) {
  archs::SocConfig soc = shipped("hbm_host_like");
  const sim::RunResult run =
      run_on(soc, layers("  - {name: g, op: gemm, m: 256, n: 256, k: 256, dtype: fp8_e5m2}\n"));
  ASSERT_EQ(run.ops.size(), 1u);
  EXPECT_EQ(run.ops[0].converted_from, "fp8_e5m2");
  EXPECT_NE(run.ops[0].dtype, "fp8_e5m2");
}

TEST(NarrowFormatsRun, UnitsThatDoNotReadAWeightFormatRefuseTheOpNamingIt) {
  const archs::SocConfig soc = shipped("tpu_v1_like");
  const auto error = testing::capture_error([&] {
    ir::Graph graph = layers(std::string(kGemv) + ", weight_dtype: int4}\n");
    fit_graph_to_soc(soc, graph, true, false);
  });
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("'g' stores weights in int4"));
}

TEST(NarrowFormatsRun, Int4IsNoUnitsOperandType) {
  const auto error = testing::capture_error([] {
    archs::parse_soc_config(parse_config_text(
        "name: t\nclock_ghz: 1.0\n"
        "memory:\n  dram: {kind: ddr4, bandwidth_gbps: 25.6, latency_ns: 100}\n"
        "units:\n"
        "  - {name: mxu, kind: systolic, rows: 16, cols: 16, dataflow: ws, dtype: int4,\n"
        "     acc_dtype: int32, buffers: {ifmap_kib: 64, filter_kib: 64, ofmap_kib: 32}}\n",
        "arch.yaml"));
  });
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("int4 is not a unit's operand type"));
  EXPECT_EQ(error->where().line, 6);
}

// Priced conversion: a unit that lacks an op's narrow type converts it at a price the report
// shows, the time its converting resource takes and the energy of each conversion.
const std::string kGemm = "  - {name: g, op: gemm, m: 256, n: 256, k: 256, dtype: ";

// hbm_host_like's 16 cores of 64 lanes have no fp8 matrix rate: the fp8 GEMM runs in fp16.
// It reads A and B (2 x 256 x 256 elements) and writes C (256 x 256): 196 608 conversions, a
// lane instruction widening a pair of fp8 values (cvt.rn.f16x2.e4m3x2), so 2048 a cycle:
// 96 cycles at 1 GHz (within compute_cycles), each conversion an fp16 add's energy (16nm table: 0.4 pJ [Horowitz] x
// 0.1424 = 0.05698 pJ).
TEST(PricedConversion, AnFp8GemmOnLanesWithoutFp8PaysItsConversionsInTimeAndEnergy) {
  const archs::SocConfig soc = shipped("hbm_host_like");
  const sim::RunResult fp8 = run_on(soc, layers(kGemm + "fp8_e5m2}\n"));
  const sim::RunResult fp16 = run_on(soc, layers(kGemm + "fp16}\n"));
  ASSERT_EQ(fp8.ops.size(), 1u);
  const sim::OpResult& op = fp8.ops[0];
  EXPECT_EQ(op.converted_from, "fp8_e5m2");
  EXPECT_EQ(op.dtype, "fp16");
  EXPECT_EQ(op.converted_elements, 196608);
  EXPECT_EQ(op.conversion_cycles, 96);
  EXPECT_EQ(op.compute_cycles, fp16.ops[0].compute_cycles + 96);
  // A, B and C move as stored, a byte an element: half of fp16's.
  EXPECT_EQ(op.dram_bytes_read, 2 * 256 * 256);
  EXPECT_EQ(op.dram_bytes_written, 256 * 256);
  EXPECT_EQ(fp16.ops[0].dram_bytes_read, 2 * 2 * 256 * 256);
  EXPECT_NEAR(op.energy_by_action.at("convert"), 196608 * 0.05698e-12, 1e-18);
  EXPECT_EQ(fp16.ops[0].converted_elements, 0);
  EXPECT_EQ(fp16.ops[0].energy_by_action.count("convert"), 0u);
}

TEST(PricedConversion, TheReportShowsTheConversionBesideConvertedFrom) {
  const sim::RunResult run = run_on(shipped("hbm_host_like"), layers(kGemm + "fp8_e5m2}\n"));
  const nlohmann::ordered_json report = reports::report_json(run);
  const nlohmann::ordered_json& op = report.at("ops").at(0);
  EXPECT_EQ(op.at("converted_from"), "fp8_e5m2");
  EXPECT_EQ(op.at("conversion").at("elements"), 196608);
  EXPECT_EQ(op.at("conversion").at("cycles"), 96);
  EXPECT_DOUBLE_EQ(op.at("conversion").at("seconds").get<double>(), 96e-9);
  EXPECT_NEAR(op.at("conversion").at("energy_j").get<double>(), 196608 * 0.05698e-12, 1e-18);
  EXPECT_NEAR(op.at("energy_by_action").at("convert").get<double>(), 196608 * 0.05698e-12,
              1e-18);
  const sim::RunResult plain = run_on(shipped("hbm_host_like"), layers(kGemm + "fp16}\n"));
  EXPECT_TRUE(reports::report_json(plain).at("ops").at(0).at("conversion").is_null());
}

TEST(PricedConversion, AnInt8ArrayRunsInt4AsConfiguredAndRefusesFp8ByName) {
  const archs::SocConfig soc = shipped("tpu_v1_like");
  const sim::RunResult int4 = run_on(soc, layers(kGemm + "int4}\n"));
  const sim::RunResult int8 = run_on(soc, layers(kGemm + "int8}\n"));
  EXPECT_EQ(int4.ops[0].dtype, "int4");
  EXPECT_EQ(int4.ops[0].converted_from, "");
  EXPECT_EQ(int4.ops[0].converted_elements, 0);
  EXPECT_EQ(int4.ops[0].compute_cycles, int8.ops[0].compute_cycles);
  EXPECT_EQ(2 * int4.ops[0].dram_bytes_read, int8.ops[0].dram_bytes_read);
  const auto error = testing::capture_error([&] {
    ir::Graph graph = layers(kGemm + "fp8}\n");
    fit_graph_to_soc(soc, graph, true, false);
  });
  ASSERT_TRUE(error);
  EXPECT_THAT(error->message(), HasSubstr("has int8 PEs: 'g' in fp8_e4m3"));
}

}  // namespace
}  // namespace polyarch::driver
