#pragma once
// Sweep progress: on a terminal one redrawn line with a bar, rate and ETA; otherwise (logs, CI,
// pipes) one plain line per finished job, so the output reads well in a file.
#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>

namespace polyarch::sweep {

class SweepProgress {
 public:
  SweepProgress(std::ostream& out, int64_t total, bool terminal);

  // One job finished; `label` names it ("point 1a2b… on bert") for plain lines.
  void finished(const std::string& label, bool ok);
  // Ends the redrawn line on a terminal.
  void close();

  // "1m05s" style durations for ETA.
  static std::string format_duration(double seconds);

 private:
  std::ostream& out_;
  int64_t total_;
  bool terminal_;
  int64_t done_ = 0;
  int64_t failed_ = 0;
  std::chrono::steady_clock::time_point started_;
};

}  // namespace polyarch::sweep
