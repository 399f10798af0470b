#include "sim/memory/dram/trace.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "tests/support/bad_input.h"

namespace polyarch::sim::dram {
namespace {

Trace parse(const std::string& text) {
  std::istringstream in(text);
  return read_dramsim3_trace(in, "t.trace");
}

// The error's location and message for a trace that must be rejected.
std::string error_of(const std::string& text) {
  return test_support::bad_input_message([&] { parse(text); }, text);
}

TEST(DramTrace, ReadsHexAddressesKindsAndCyclesSkippingBlanksAndComments) {
  const Trace trace = parse("# header\n0x1f40 READ 0\n\n0X40 WRITE 7\r\n0x0 READ 7\n");
  ASSERT_EQ(trace.requests.size(), 3u);
  EXPECT_EQ(trace.requests[0].address, 0x1f40);
  EXPECT_FALSE(trace.requests[0].is_write);
  EXPECT_EQ(trace.requests[0].line, 2);
  EXPECT_EQ(trace.requests[1].address, 64);
  EXPECT_TRUE(trace.requests[1].is_write);
  EXPECT_EQ(trace.requests[1].arrival_cycle, 7);
  EXPECT_EQ(trace.requests[1].line, 4);
  EXPECT_EQ(trace.requests[2].line, 5);
}

TEST(DramTrace, UnparsableLinesNameFileAndLine) {
  EXPECT_NE(error_of("0x40 READ 0\n0x80 READ\n").find("t.trace:2"), std::string::npos);
  EXPECT_NE(error_of("0x40 READ 0\n0x80 READ 1\n0xZZ READ 2\n").find("t.trace:3"),
            std::string::npos);
  const std::string kind = error_of("0x40 FETCH 0\n");
  EXPECT_NE(kind.find("t.trace:1"), std::string::npos);
  EXPECT_NE(kind.find("FETCH"), std::string::npos);
  EXPECT_NE(error_of("0x40 READ -3\n").find("t.trace:1"), std::string::npos);
  EXPECT_NE(error_of("0x40 READ 3 extra\n").find("t.trace:1"), std::string::npos);
}

TEST(DramTrace, CyclesGoingBackwardsAreRejectedAtTheirLine) {
  const std::string message = error_of("0x40 READ 10\n0x80 READ 12\n0xc0 WRITE 11\n");
  EXPECT_NE(message.find("t.trace:3"), std::string::npos) << message;
  EXPECT_NE(message.find("backwards"), std::string::npos) << message;
}

}  // namespace
}  // namespace polyarch::sim::dram
