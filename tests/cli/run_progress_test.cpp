// The elapsed-time line `polyarch run` draws on a terminal's stderr: drawn only after its delay,
// only when enabled, and erased when the run ends.
#include "cli/run_progress.h"

#include <gtest/gtest.h>

#include <thread>

namespace polyarch::cli {
namespace {

using namespace std::chrono_literals;

std::string stderr_while(bool enabled, std::chrono::milliseconds delay,
                         std::chrono::milliseconds run_time) {
  testing::internal::CaptureStderr();
  {
    const RunProgress progress("a.yaml on w.yaml", enabled, delay);
    std::this_thread::sleep_for(run_time);
  }
  return testing::internal::GetCapturedStderr();
}

TEST(RunProgress, ALongRunShowsWhatRunsAndErasesTheLineAtTheEnd) {
  const std::string drawn = stderr_while(true, 0ms, 300ms);
  EXPECT_EQ(drawn.rfind("\r\033[Ksimulating a.yaml on w.yaml | 0 s", 0), 0u) << drawn;
  ASSERT_GE(drawn.size(), 4u);
  EXPECT_EQ(drawn.substr(drawn.size() - 4), "\r\033[K");  // nothing left on the line
}

TEST(RunProgress, AShortRunOrADisabledOneDrawsNothing) {
  EXPECT_EQ(stderr_while(true, 10000ms, 0ms), "");
  EXPECT_EQ(stderr_while(false, 0ms, 100ms), "");
}

}  // namespace
}  // namespace polyarch::cli
