#include "sweep/progress.h"

#include <cmath>
#include <cstdio>

namespace polyarch::sweep {

SweepProgress::SweepProgress(std::ostream& out, int64_t total, bool terminal)
    : out_(out), total_(total), terminal_(terminal), started_(std::chrono::steady_clock::now()) {}

std::string SweepProgress::format_duration(double seconds) {
  int64_t whole = static_cast<int64_t>(std::llround(seconds));
  char text[32];
  if (whole >= 3600) {
    std::snprintf(text, sizeof text, "%lldh%02lldm", static_cast<long long>(whole / 3600),
                  static_cast<long long>(whole % 3600 / 60));
  } else if (whole >= 60) {
    std::snprintf(text, sizeof text, "%lldm%02llds", static_cast<long long>(whole / 60),
                  static_cast<long long>(whole % 60));
  } else {
    std::snprintf(text, sizeof text, "%llds", static_cast<long long>(whole));
  }
  return text;
}

void SweepProgress::finished(const std::string& label, bool ok) {
  ++done_;
  failed_ += ok ? 0 : 1;
  double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  double rate = elapsed > 0 ? static_cast<double>(done_) / elapsed : 0.0;
  double eta = rate > 0 ? static_cast<double>(total_ - done_) / rate : 0.0;
  char stats[96];
  std::snprintf(stats, sizeof stats, "%lld/%lld  %.1f/s  ETA %s%s", static_cast<long long>(done_),
                static_cast<long long>(total_), rate, format_duration(eta).c_str(),
                failed_ > 0 ? ("  " + std::to_string(failed_) + " failed").c_str() : "");
  if (terminal_) {
    constexpr int kWidth = 30;
    int filled = total_ > 0 ? static_cast<int>(kWidth * done_ / total_) : kWidth;
    out_ << "\r[" << std::string(filled, '#') << std::string(kWidth - filled, '.') << "] " << stats
         << "\x1b[K" << std::flush;
  } else {
    out_ << "[" << done_ << "/" << total_ << "] " << label << ": " << (ok ? "ok" : "FAILED")
         << "  (" << stats << ")\n";
  }
}

void SweepProgress::close() {
  if (terminal_ && done_ > 0) out_ << "\n";
  out_.flush();
}

}  // namespace polyarch::sweep
