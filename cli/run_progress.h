#pragma once
// What `polyarch run` shows on a terminal while a simulation takes long: after two seconds, one
// redrawn line on stderr with a spinner and the elapsed time, erased when the run ends (by
// success or error). Nothing at all when stderr is not a terminal or with --quiet, so logs and
// pipes stay clean. The simulation reports no fraction done, so the line shows time, not a ratio.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace polyarch::cli {

class RunProgress {
 public:
  // `label` says what runs ("tpu_v1_like.yaml on resnet50_layers.yaml"); nothing is drawn
  // unless `enabled`.
  RunProgress(std::string label, bool enabled,
              std::chrono::milliseconds delay = std::chrono::milliseconds(2000));
  ~RunProgress();
  RunProgress(const RunProgress&) = delete;
  RunProgress& operator=(const RunProgress&) = delete;

 private:
  void draw_until_stopped();

  std::string label_;
  std::chrono::milliseconds delay_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopped_ = false;
  std::thread drawer_;
};

// Whether stderr is a terminal.
bool stderr_is_terminal();

}  // namespace polyarch::cli
