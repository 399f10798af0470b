// The pass manager: order, op counts around each pass, statistics and IR dumps.
#include "compiler/passes/pass_manager.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "compiler/passes/dead_code.h"
#include "tests/base/error_capture.h"
#include "tests/compiler/onnx_graph_builder.h"

namespace polyarch::passes {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::OnnxGraphBuilder;

// Counts the ops it sees and changes nothing.
class CountingPass : public Pass {
 public:
  explicit CountingPass(std::string name) : name_(std::move(name)) {}
  std::string_view name() const override { return name_; }
  PassStatistics run(ir::Graph& graph) override {
    PassStatistics statistics;
    statistics.add("seen", static_cast<int64_t>(graph.op_count()));
    return statistics;
  }

 private:
  std::string name_;
};

OnnxGraphBuilder graph_with_dead_op() {
  OnnxGraphBuilder b;
  b.input("x", {2});
  b.node("Relu", {"x"}, {"y"}, {}, "live");
  b.node("Neg", {"x"}, {"n"}, {}, "dead");
  b.output("y");
  return b;
}

PassManager pipeline() {
  PassManager manager;
  manager.add(std::make_unique<CountingPass>("count"));
  manager.add(std::make_unique<DeadCodeEliminationPass>());
  manager.add(std::make_unique<CountingPass>("recount"));
  return manager;
}

TEST(PassManager, RecordsOpsBeforeAndAfterEachPassInOrder) {
  OnnxGraphBuilder b = graph_with_dead_op();
  const std::vector<PassRecord> records = pipeline().run(b.graph);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].pass, "count");
  EXPECT_EQ(records[1].pass, "dce");
  EXPECT_EQ(records[1].ops_before, 2u);
  EXPECT_EQ(records[1].ops_after, 1u);
  EXPECT_EQ(records[2].statistics.get("seen"), 1);
  EXPECT_FALSE(records[0].ir_after);
  EXPECT_EQ(pass_summary(records),
            "count: 2 -> 2 ops (seen 2)\n"
            "dce: 2 -> 1 ops (ops erased 1, tensors erased 1)\n"
            "recount: 1 -> 1 ops (seen 1)\n");
}

TEST(PassManager, DumpsTheIrAfterTheNamedPassOnly) {
  OnnxGraphBuilder b = graph_with_dead_op();
  PassManager manager = pipeline();
  manager.dump_after("dce");
  const std::vector<PassRecord> records = manager.run(b.graph);
  EXPECT_FALSE(records[0].ir_after);
  ASSERT_TRUE(records[1].ir_after);
  EXPECT_THAT(*records[1].ir_after, HasSubstr("%live = onnx:Relu(%x[2]) -> %y[?]:? native\n"));
  EXPECT_THAT(*records[1].ir_after, ::testing::Not(HasSubstr("%dead")));
  EXPECT_FALSE(records[2].ir_after);
}

TEST(PassManager, DumpAllDumpsAfterEveryPass) {
  OnnxGraphBuilder b = graph_with_dead_op();
  PassManager manager = pipeline();
  manager.dump_after("all");
  for (const PassRecord& record : manager.run(b.graph)) EXPECT_TRUE(record.ir_after) << record.pass;
}

TEST(PassManager, UnknownDumpNameListsThePasses) {
  PassManager manager = pipeline();
  EXPECT_THAT(manager.pass_names(), ElementsAre("count", "dce", "recount"));
  EXPECT_THAT(testing::error_text([&] { manager.dump_after("fuse"); }),
              HasSubstr("no pass named 'fuse' (passes: count, dce, recount, or all)"));
}

}  // namespace
}  // namespace polyarch::passes
