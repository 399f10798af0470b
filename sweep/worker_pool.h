#pragma once
// Runs jobs in forked child processes, at most N at a time. Why processes: SystemC keeps one
// global simulation context per process and is not thread-safe, so parallel simulations need
// separate address spaces. Why fork without exec: the parent only parses files and writes the
// database — it never enters SystemC — so a child starts from a clean, already-loaded copy
// (arch documents and workload graphs included) for the cost of a fork, and a crash in a
// simulation (even a signal) only loses that one job. Children never touch the parent's SQLite
// connection: they send their answer over a pipe and leave with _exit().
#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace polyarch::sweep {

struct FinishedJob {
  uint64_t tag = 0;
  bool ok = false;
  std::string payload;  // the job's return value when ok, else why it failed
  double wall_s = 0.0;
};

class WorkerPool {
 public:
  explicit WorkerPool(int max_children);
  ~WorkerPool();  // kills and reaps children still running (e.g. after an exception)
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  bool full() const { return static_cast<int>(running_.size()) >= max_children_; }
  bool idle() const { return running_.empty(); }

  // Forks a child that runs `job` and sends back its return value, or its exception's text.
  void start(uint64_t tag, const std::function<std::string()>& job);
  // Blocks until at least one child has finished, or for at most timeout_ms milliseconds when
  // that is not negative; returns every finished one (none after a timeout).
  std::vector<FinishedJob> wait(int timeout_ms = -1);

 private:
  struct Child {
    uint64_t tag;
    pid_t pid;
    int fd;
    std::string received;
    double started_s;
  };
  FinishedJob reap(Child& child);

  int max_children_;
  std::vector<Child> running_;
};

}  // namespace polyarch::sweep
