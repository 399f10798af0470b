#include "cli/resource_limits.h"

#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstring>
#include <iostream>

#include "base/error.h"
#include "base/sanitizers.h"

namespace polyarch::cli {

double parse_positive(const std::string& option, const std::string& text, double scale) {
  try {
    std::size_t consumed = 0;
    double value = std::stod(text, &consumed);
    if (consumed == text.size() && value > 0 && std::isfinite(value)) return value * scale;
  } catch (const std::exception&) {
  }
  throw_bad_input({}, "--" + option + " expects a positive number, got '" + text + "'");
}

namespace {

double parse_memory_gib(const std::string& text) {
  if (text.empty()) throw_bad_input({}, "--max-memory expects a size, got ''");
  const char suffix = text.back();
  if (suffix == 'G' || suffix == 'g')
    return parse_positive("max-memory", text.substr(0, text.size() - 1), 1.0);
  if (suffix == 'M' || suffix == 'm') {
    return parse_positive("max-memory", text.substr(0, text.size() - 1), 1.0 / 1024);
  }
  return parse_positive("max-memory", text, 1.0);
}

// Async-signal-safe: only write(2) and _exit(2).
void on_time_limit(int) {
  static const char kMessage[] =
      "polyarch: error: the run exceeded --max-sim-seconds and was stopped; nothing was written\n";
  ssize_t ignored = write(STDERR_FILENO, kMessage, sizeof(kMessage) - 1);
  (void)ignored;
  _exit(1);
}

}  // namespace

ResourceLimits parse_resource_limits(const std::optional<std::string>& max_seconds,
                                     const std::optional<std::string>& max_memory) {
  ResourceLimits limits;
  if (max_seconds) limits.max_seconds = parse_positive("max-sim-seconds", *max_seconds, 1.0);
  if (max_memory) limits.max_memory_gib = parse_memory_gib(*max_memory);
  return limits;
}

void apply_resource_limits(const ResourceLimits& limits) {
  if (limits.max_memory_gib && kAddressSpaceReservedBySanitizer) {
    std::cerr << "polyarch: warning: --max-memory is ignored in a sanitizer build (its shadow "
                 "memory already exceeds any address-space limit)\n";
  } else if (limits.max_memory_gib) {
    rlimit memory{};
    memory.rlim_cur = memory.rlim_max =
        static_cast<rlim_t>(*limits.max_memory_gib * 1024.0 * 1024.0 * 1024.0);
    if (setrlimit(RLIMIT_AS, &memory) != 0) {
      throw_runtime({}, std::string("cannot set --max-memory: ") + std::strerror(errno));
    }
  }
  if (limits.max_seconds) {
    std::signal(SIGALRM, on_time_limit);
    itimerval timer{};
    const double seconds = *limits.max_seconds;
    timer.it_value.tv_sec = static_cast<time_t>(seconds);
    timer.it_value.tv_usec =
        static_cast<suseconds_t>((seconds - static_cast<double>(timer.it_value.tv_sec)) * 1e6);
    if (timer.it_value.tv_sec == 0 && timer.it_value.tv_usec == 0) timer.it_value.tv_usec = 1;
    setitimer(ITIMER_REAL, &timer, nullptr);
  }
}

}  // namespace polyarch::cli
