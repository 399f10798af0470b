// The dataflow fabric's clocked storage: every PE's register and stage words and its switch's
// buffers, counted by hand from the parameters (32-bit words).
#include "archs/dataflow/energy.h"

#include <gtest/gtest.h>

#include "tests/archs/dataflow/dataflow_fixture.h"

namespace polyarch::archs::dataflow::test {
namespace {

TEST(DataflowEnergy, ClockedBitsAreEveryPesRegistersStagesAndSwitchBuffers) {
  DataflowParams params = small_cgra();
  // Per PE, one lane: (8 registers + 1 stage) x 32 bits + 4 directions x 1 link x 32 bits = 416;
  // 16 PEs.
  EXPECT_DOUBLE_EQ(dataflow_clocked_bits(params), 16.0 * 416.0);
  // A Plasticine PCU's shape: 16 lanes, 6 stages, 2 links per direction, on the same grid:
  // (8 + 6) x 16 x 32 + 4 x 2 x 16 x 32 = 7168 + 4096 = 11264 bits per PE.
  params.pe.lanes = 16;
  params.pe.stages = 6;
  params.network.links_per_direction = 2;
  EXPECT_DOUBLE_EQ(dataflow_clocked_bits(params), 16.0 * 11264.0);
}

}  // namespace
}  // namespace polyarch::archs::dataflow::test
