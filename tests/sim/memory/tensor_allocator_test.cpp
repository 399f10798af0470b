#include "sim/memory/tensor_allocator.h"

#include <gtest/gtest.h>

#include <map>

#include "base/config_tree.h"
#include "compiler/frontend/layer_list.h"

namespace polyarch::sim {
namespace {

ir::Graph two_gemms() {
  // int8: a is 100 x 300 (30000 B), b 300 x 50 (15000 B), c 100 x 50 (5000 B).
  return frontend::layer_list_from_config(
      parse_config_text("layers:\n"
                        "  - {name: g1, op: gemm, m: 100, n: 50, k: 300, dtype: int8}\n"
                        "  - {name: g2, op: gemm, m: 100, n: 50, k: 300, dtype: int8}\n",
                        "two.yaml"),
      "two");
}

TEST(TensorAllocation, TensorsGetPageAlignedDisjointRangesCoveringTheirBytes) {
  const ir::Graph graph = two_gemms();
  const TensorAllocation allocation(graph);
  ASSERT_FALSE(allocation.tensors().empty());
  int64_t end = 0;
  for (const TensorPlacement& tensor : allocation.tensors()) {
    EXPECT_EQ(tensor.base_address % 4096, 0) << tensor.name;
    EXPECT_GE(tensor.base_address, end) << tensor.name;  // after the previous one
    end = tensor.base_address + tensor.bytes;
  }
  EXPECT_GE(allocation.footprint_bytes(), end);
  EXPECT_LT(allocation.footprint_bytes(), end + 4096);
}

TEST(TensorAllocation, TensorsOfAnOpWithoutATypeTakeTheTypeItsUnitComputesIn) {
  // No dtype: the layer list's tensors carry a placeholder type, and the op computes in its
  // unit's. On a bf16 unit a (100 x 300), b (300 x 50) and c (100 x 50) hold 2 bytes each.
  const ir::Graph graph = frontend::layer_list_from_config(
      parse_config_text("layers:\n  - {name: g, op: gemm, m: 100, n: 50, k: 300}\n", "u.yaml"),
      "untyped");
  const ir::NodeId gemm = graph.topological_ops().front();
  const TensorAllocation allocation(graph, [gemm](ir::NodeId op) -> std::optional<ir::DType> {
    if (op == gemm) return ir::DType::kBf16;
    return std::nullopt;
  });
  std::map<std::string, int64_t> bytes;
  for (const TensorPlacement& tensor : allocation.tensors()) bytes[tensor.role] += tensor.bytes;
  EXPECT_EQ(bytes["weight"], 300 * 50 * 2);
  EXPECT_EQ(bytes["activation"] + bytes["output"], (100 * 300 + 100 * 50) * 2);
  // Without the unit's type the placeholder's bytes are all that is known.
  const TensorAllocation placeholder(graph);
  int64_t untyped = 0;
  for (const TensorPlacement& tensor : placeholder.tensors()) untyped += tensor.bytes;
  EXPECT_EQ(untyped * 2, bytes["weight"] + bytes["activation"] + bytes["output"]);
}

TEST(TensorAllocation, AnOpReadsItsOperandsAndWritesItsResult) {
  const ir::Graph graph = two_gemms();
  const TensorAllocation allocation(graph);
  const ir::NodeId g1 = graph.topological_ops().front();
  const OpRanges ranges = allocation.ranges_of(g1);
  ASSERT_EQ(ranges.reads.size(), 2u);
  ASSERT_EQ(ranges.writes.size(), 1u);
  int64_t read_bytes = ranges.reads[0].bytes + ranges.reads[1].bytes;
  EXPECT_EQ(read_bytes, 30000 + 15000);
  EXPECT_EQ(ranges.writes[0].bytes, 5000);
  int weights = 0;
  for (const TensorPlacement& tensor : allocation.tensors()) weights += tensor.role == "weight";
  EXPECT_EQ(weights, 2);
}

TEST(TensorAllocation, ARepeatedLayersCopiesShareItsOperandsAndResultStorage) {
  const ir::Graph repeated = frontend::layer_list_from_config(
      parse_config_text("layers: [{name: g, op: gemm, m: 100, n: 50, k: 300, dtype: int8,"
                        " repeat: 4}]\n",
                        "r.yaml"),
      "r");
  const TensorAllocation allocation(repeated);
  // One set of tensors, each on its own pages: 30000 -> 32768, 15000 -> 16384, 5000 -> 8192.
  EXPECT_EQ(allocation.footprint_bytes(), 32768 + 16384 + 8192);
  const std::vector<ir::NodeId> ops = repeated.topological_ops();
  ASSERT_EQ(ops.size(), 4u);
  const OpRanges first = allocation.ranges_of(ops[0]);
  for (ir::NodeId op : ops) {
    const OpRanges ranges = allocation.ranges_of(op);
    ASSERT_EQ(ranges.reads.size(), 2u);
    ASSERT_EQ(ranges.writes.size(), 1u);
    for (std::size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(ranges.reads[i].base, first.reads[i].base);
    }
    EXPECT_EQ(ranges.writes[0].base, first.writes[0].base);
    EXPECT_EQ(ranges.writes[0].bytes, 5000);
  }
}

TEST(TensorAllocation, AFootprintBeyondTheCapacityIsBadInputNamingBoth) {
  const ir::Graph graph = two_gemms();
  const TensorAllocation allocation(graph);
  try {
    require_capacity(allocation, "two", 65536, {"arch.yaml", 9, 3, "memory.dram"});
    FAIL() << "expected a capacity error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    const std::string text = error.what();
    EXPECT_NE(text.find(std::to_string(allocation.footprint_bytes()) + " bytes"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("65536 bytes"), std::string::npos) << text;
    EXPECT_NE(text.find("arch.yaml:9"), std::string::npos) << text;
  }
  EXPECT_NO_THROW(require_capacity(allocation, "two", allocation.footprint_bytes(), {}));
}

// Hand-derived: 4096 x 4096 int4 codes in half a byte each and 32 fp16 scales per column; K and V
// in int8 with an fp16 scale per token and head.
TEST(TensorAllocation, QuantisedWeightsAndKvCachesTakeTheirStoredBytesWithScales) {
  const ir::Graph graph = frontend::layer_list_from_config(
      parse_config_text("layers:\n"
                        "  - {name: g, op: gemm, m: 1, n: 4096, k: 4096, dtype: fp16,\n"
                        "     weight_dtype: int4, weight_group: 128}\n"
                        "  - {name: a, op: attention, h: 32, kv_heads: 8, s: 1, kv_len: 1000,\n"
                        "     d: 128, dtype: bf16, kv_dtype: int8}\n",
                        "w.yaml"),
      "w");
  const TensorAllocation allocation(graph);
  std::map<std::string, int64_t> bytes;
  for (const TensorPlacement& placement : allocation.tensors()) {
    bytes[placement.name] = placement.bytes;
  }
  EXPECT_EQ(bytes.at("g.w"), 8388608 + 262144);
  EXPECT_EQ(bytes.at("g.in"), 4096 * 2);
  EXPECT_EQ(bytes.at("a.k"), 8 * 1000 * 128 + 8 * 1000 * 2);
  EXPECT_EQ(bytes.at("a.v"), 8 * 1000 * 128 + 8 * 1000 * 2);
  EXPECT_EQ(bytes.at("a.q"), 32 * 128 * 2);
}

}  // namespace
}  // namespace polyarch::sim
