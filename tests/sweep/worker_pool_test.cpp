#include "sweep/worker_pool.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <map>

#include "base/error.h"

namespace polyarch::sweep {
namespace {

std::map<uint64_t, FinishedJob> drain(WorkerPool& pool) {
  std::map<uint64_t, FinishedJob> finished;
  while (!pool.idle()) {
    for (FinishedJob& job : pool.wait()) finished[job.tag] = std::move(job);
  }
  return finished;
}

TEST(WorkerPool, ChildAnswersComeBackByTag) {
  WorkerPool pool(2);
  pool.start(7, [] { return std::string("seven"); });
  EXPECT_FALSE(pool.full());
  // Larger than a pipe buffer: the parent must read while the child writes.
  pool.start(8, [] { return std::string(1 << 20, 'x'); });
  EXPECT_TRUE(pool.full());
  std::map<uint64_t, FinishedJob> finished = drain(pool);
  ASSERT_EQ(finished.size(), 2u);
  EXPECT_TRUE(finished[7].ok);
  EXPECT_EQ(finished[7].payload, "seven");
  EXPECT_EQ(finished[8].payload.size(), std::size_t{1} << 20);
}

TEST(WorkerPool, ChildStateDoesNotLeakIntoTheParent) {
  int counter = 1;
  WorkerPool pool(1);
  pool.start(0, [&counter] {
    counter = 99;
    return std::to_string(counter);
  });
  std::map<uint64_t, FinishedJob> finished = drain(pool);
  EXPECT_EQ(finished[0].payload, "99");
  EXPECT_EQ(counter, 1);
}

TEST(WorkerPool, ExceptionsAndCrashesBecomeFailuresOfThatJobOnly) {
  WorkerPool pool(3);
  pool.start(1, []() -> std::string { throw_runtime({}, "tile does not fit"); });
  pool.start(2, []() -> std::string {
    raise(SIGILL);  // not SIGSEGV: ASan's SEGV handler would turn it into an abort
    return "unreachable";
  });
  pool.start(3, [] { return std::string("fine"); });
  std::map<uint64_t, FinishedJob> finished = drain(pool);
  EXPECT_FALSE(finished[1].ok);
  EXPECT_NE(finished[1].payload.find("tile does not fit"), std::string::npos);
  EXPECT_FALSE(finished[2].ok);
  EXPECT_NE(finished[2].payload.find("signal 4"), std::string::npos) << finished[2].payload;
  EXPECT_TRUE(finished[3].ok);
}

}  // namespace
}  // namespace polyarch::sweep
