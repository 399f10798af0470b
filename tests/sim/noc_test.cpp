#include "sim/noc/noc.h"

#include <gtest/gtest.h>

namespace polyarch::sim {
namespace {

Noc mesh(int64_t rows, int64_t columns) {
  return Noc({NocTopology::kMesh, rows * columns, columns, 32, 2});
}

TEST(Noc, MeshRoutesAlongTheRowFirstThenDownTheColumn) {
  const Noc noc = mesh(4, 4);
  EXPECT_EQ(noc.hops(0, 15), 6);
  EXPECT_EQ(noc.hops(5, 5), 0);
  // 0 -> 3 along row 0, then 3 -> 15 down column 3: the first three links leave nodes 0, 1, 2.
  const std::vector<int64_t> route = noc.route(0, 15);
  EXPECT_EQ(route.front() / 4, 0);
  EXPECT_EQ(route[2] / 4, 2);
  EXPECT_EQ(route[3] / 4, 3);
}

TEST(Noc, RingTakesTheShorterWayAndCrossbarTwoPorts) {
  const Noc ring({NocTopology::kRing, 8, 1, 32, 1});
  EXPECT_EQ(ring.hops(0, 6), 2);
  EXPECT_EQ(ring.hops(0, 4), 4);
  EXPECT_EQ(ring.hops(6, 1), 3);
  const Noc crossbar({NocTopology::kCrossbar, 8, 1, 32, 1});
  EXPECT_EQ(crossbar.hops(0, 7), 2);
}

TEST(Noc, ATransferTakesHopLatenciesPlusSerialization) {
  Noc noc = mesh(1, 4);
  // 3 hops x 2 cycles + 1024 bytes / 32 bytes per cycle.
  EXPECT_EQ(noc.transfer(0, 3, 1024, 100), 100 + 3 * 2 + 32);
  EXPECT_EQ(noc.transfer(2, 2, 1024, 7), 7);
}

TEST(Noc, TransfersSharingALinkSerialiseAndDisjointOnesDoNot) {
  Noc shared = mesh(1, 4);
  const int64_t first = shared.transfer(0, 2, 3200, 0);   // links 0->1, 1->2
  const int64_t second = shared.transfer(1, 3, 3200, 0);  // links 1->2, 2->3: shares 1->2
  EXPECT_EQ(first, 2 * 2 + 100);
  EXPECT_GE(second, first + 100 - 2);  // waits for the shared link to drain
  Noc disjoint = mesh(1, 4);
  EXPECT_EQ(disjoint.transfer(0, 1, 3200, 0), disjoint.transfer(2, 3, 3200, 0));
  EXPECT_EQ(shared.total_link_bytes(), 4 * 3200);
}

}  // namespace
}  // namespace polyarch::sim
