#include "cli/run_progress.h"

#include <unistd.h>

#include <cstdio>

namespace polyarch::cli {

RunProgress::RunProgress(std::string label, bool enabled, std::chrono::milliseconds delay)
    : label_(std::move(label)), delay_(delay) {
  if (enabled) drawer_ = std::thread([this] { draw_until_stopped(); });
}

RunProgress::~RunProgress() {
  if (!drawer_.joinable()) return;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = true;
  }
  wake_.notify_all();
  drawer_.join();
}

void RunProgress::draw_until_stopped() {
  const auto started = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mutex_);
  if (wake_.wait_for(lock, delay_, [this] { return stopped_; })) return;
  static constexpr const char kSpinner[] = {'|', '/', '-', '\\'};
  std::size_t frame = 0;
  do {
    const double elapsed_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    // \r and erase-to-end-of-line redraw the one line in place.
    std::fprintf(stderr, "\r\033[Ksimulating %s %c %.0f s", label_.c_str(), kSpinner[frame++ % 4],
                 elapsed_s);
    std::fflush(stderr);
  } while (!wake_.wait_for(lock, std::chrono::milliseconds(250), [this] { return stopped_; }));
  std::fputs("\r\033[K", stderr);
  std::fflush(stderr);
}

bool stderr_is_terminal() { return isatty(STDERR_FILENO) != 0; }

}  // namespace polyarch::cli
