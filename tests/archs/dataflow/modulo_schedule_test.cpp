// The initiation interval of known graphs is what their recurrence, resource and routing bounds
// imply, and the schedule honours every dependence.
#include "archs/dataflow/modulo_schedule.h"

#include <gtest/gtest.h>

#include "archs/dataflow/dfg_builders.h"
#include "archs/dataflow/mapper.h"
#include "tests/archs/dataflow/dataflow_fixture.h"

namespace polyarch::archs::dataflow::test {
namespace {

// load -> add (accumulating over `distance` iterations, `latency` cycles) -> store
Dfg accumulation(int64_t latency, int64_t distance) {
  Dfg dfg;
  dfg.label = "acc";
  const int load = dfg.add(NodeKind::kLoad, "load", 1);
  const int add = dfg.add(NodeKind::kAlu, "add", latency);
  const int store = dfg.add(NodeKind::kStore, "store", 1);
  dfg.connect(load, add);
  dfg.connect(add, add, distance);
  dfg.connect(add, store);
  return dfg;
}

TEST(DataflowModuloSchedule, AccumulationRecurrenceGivesLatencyOverDistance) {
  for (int64_t latency : {1, 3, 4, 7}) {
    for (int64_t distance : {1, 2, 3, 4}) {
      const int64_t expected = (latency + distance - 1) / distance;
      EXPECT_EQ(rec_mii(accumulation(latency, distance), {}), expected)
          << "latency " << latency << " distance " << distance;
      // Placed and routed: the self edge stays on its PE, so the bound holds as the II.
      const MappedLoop loop = map_loop(small_cgra(), accumulation(latency, distance), 1, 4);
      EXPECT_EQ(loop.schedule.rec_mii, expected);
      EXPECT_EQ(loop.schedule.ii, expected);
    }
  }
}

TEST(DataflowModuloSchedule, ACycleThroughTwoNodesNeedsItsLatencySumOverItsDistance) {
  Dfg dfg;
  const int a = dfg.add(NodeKind::kAlu, "mul", 3);
  const int b = dfg.add(NodeKind::kAlu, "add", 5);
  dfg.connect(a, b);
  dfg.connect(b, a, 2);
  EXPECT_EQ(rec_mii(dfg, {}), 4);      // ceil((3 + 5) / 2)
  EXPECT_EQ(rec_mii(dfg, {1, 1}), 5);  // one hop each way: ceil(10 / 2)
}

TEST(DataflowModuloSchedule, NOpsOnPPesNeedCeilNOverPCycles) {
  const DataflowParams params = small_cgra();  // 16 PEs, one issue slot each
  for (int64_t nodes : {5, 16, 17, 37, 64}) {
    Dfg chain;
    chain.label = "chain";
    int previous = chain.add(NodeKind::kAlu, "add", 1);
    for (int64_t i = 1; i < nodes; ++i) {
      const int next = chain.add(NodeKind::kAlu, "add", 1);
      chain.connect(previous, next);
      previous = next;
    }
    const int64_t expected = (nodes + 15) / 16;
    EXPECT_EQ(res_mii(params, chain, 4), expected) << nodes;
    const MappedLoop loop = map_loop(params, chain, 1, 4);
    EXPECT_EQ(loop.schedule.ii, expected) << nodes;
    EXPECT_LE(loop.schedule.pes_used, 16);
    EXPECT_GE(loop.schedule.pes_used * expected, nodes);  // no PE holds more than II nodes
  }
}

TEST(DataflowModuloSchedule, StagesAndMemoryPortsAreIssueSlotsToo) {
  DataflowParams params = small_cgra();
  params.pe.stages = 4;  // 64 slots per cycle
  Dfg streams;
  for (int i = 0; i < 9; ++i) {
    const int load = streams.add(NodeKind::kLoad, "load", 1);
    streams.connect(load, streams.add(NodeKind::kStore, "store", 1));
  }
  // 18 memory streams on 4 memory PEs with one port each: ceil(18 / 4).
  EXPECT_EQ(res_mii(params, streams, 4), 5);
  params.memory.ports = 2;
  EXPECT_EQ(res_mii(params, streams, 4), 3);
  // Bandwidth: 18 streams x 1 lane x 4 bytes over 4 PEs x 8 bytes per cycle.
  params.memory.bytes_per_cycle = 2;
  EXPECT_EQ(res_mii(params, streams, 4), 9);
}

TEST(DataflowModuloSchedule, EveryValueArrivesBeforeItIsUsed) {
  const DataflowParams params = shipped_params("plasticine_like.yaml");
  const std::vector<Dfg> graphs = {
      gemm_tile_dfg(params, {8, 4, true, ir::DType::kFp32}),
      elementwise_chain_dfg(params, {{"mul", 2}, {"add", 2}, {"gelu", 1}}),
      row_kernel_dfg(params, test_support::make_op("sm", ir::SoftmaxAttrs{64, 512}), 1)};
  for (const Dfg& single : graphs) {
    const MappedLoop loop = map_loop(params, single, replicas_to_fill(params, single), 4);
    const ModuloSchedule& schedule = loop.schedule;
    EXPECT_GE(schedule.ii, std::max({schedule.res_mii, schedule.rec_mii, schedule.route_mii}));
    for (std::size_t e = 0; e < loop.dfg.edges.size(); ++e) {
      const DfgEdge& edge = loop.dfg.edges[e];
      const int64_t ready = schedule.start[static_cast<std::size_t>(edge.src)] +
                            loop.dfg.nodes[static_cast<std::size_t>(edge.src)].latency +
                            schedule.route_delay[e];
      EXPECT_GE(schedule.start[static_cast<std::size_t>(edge.dst)] + schedule.ii * edge.distance,
                ready)
          << single.label;
    }
  }
}

TEST(DataflowModuloSchedule, AnnealingDoesNotLengthenTheGreedyPlacement) {
  const DataflowParams params = shipped_params("plasticine_like.yaml");
  const Dfg single = gemm_tile_dfg(params, {16, 4, true, ir::DType::kFp32});
  const MappedLoop loop = map_loop(params, single, replicas_to_fill(params, single), 4);
  EXPECT_LE(loop.placement.total_hops, loop.placement.initial_hops);
  // Same seed, same placement.
  const MappedLoop again = map_loop(params, single, replicas_to_fill(params, single), 4);
  EXPECT_EQ(again.placement.total_hops, loop.placement.total_hops);
}

}  // namespace
}  // namespace polyarch::archs::dataflow::test
