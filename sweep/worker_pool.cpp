#include "sweep/worker_pool.h"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <iostream>

#include "base/error.h"

namespace polyarch::sweep {

namespace {

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void write_all(int fd, const std::string& bytes) {
  std::size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the parent is gone; nobody is left to tell
    written += static_cast<std::size_t>(n);
  }
}

// The child's whole life: run, answer with a status byte ('R' result, 'E' error) and the text.
[[noreturn]] void run_child(int fd, const std::function<std::string()>& job) {
  // Dies with the parent: a killed sweep must not leave simulations running unseen.
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() == 1) _exit(1);
  std::string answer;
  try {
    answer = "R" + job();
  } catch (const std::exception& error) {
    answer = std::string("E") + error.what();
  } catch (...) {
    answer = "Eunknown exception";
  }
  write_all(fd, answer);
  ::close(fd);
  // _exit skips static destructors and atexit handlers, which belong to the parent (SQLite,
  // buffered streams) and would otherwise run twice.
  _exit(0);
}

}  // namespace

WorkerPool::WorkerPool(int max_children) : max_children_(max_children < 1 ? 1 : max_children) {}

WorkerPool::~WorkerPool() {
  for (Child& child : running_) {
    kill(child.pid, SIGKILL);
    waitpid(child.pid, nullptr, 0);
    ::close(child.fd);
  }
}

void WorkerPool::start(uint64_t tag, const std::function<std::string()>& job) {
  int fds[2];
  if (pipe(fds) != 0) throw_runtime({}, std::string("pipe failed: ") + std::strerror(errno));
  // Buffered output would be duplicated into the child and flushed twice.
  std::cout.flush();
  std::cerr.flush();
  pid_t pid = fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    throw_runtime({}, std::string("fork failed: ") + std::strerror(errno));
  }
  if (pid == 0) {
    ::close(fds[0]);
    // Read ends of earlier children's pipes are inherited; closing them keeps EOF exact.
    for (const Child& other : running_) ::close(other.fd);
    run_child(fds[1], job);
  }
  ::close(fds[1]);
  running_.push_back({tag, pid, fds[0], {}, now_s()});
}

FinishedJob WorkerPool::reap(Child& child) {
  ::close(child.fd);
  int status = 0;
  while (waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
  FinishedJob finished;
  finished.tag = child.tag;
  finished.wall_s = now_s() - child.started_s;
  if (WIFSIGNALED(status)) {
    finished.payload = "worker process killed by signal " + std::to_string(WTERMSIG(status)) +
                       " (" + strsignal(WTERMSIG(status)) + ")";
  } else if (child.received.empty()) {
    finished.payload = "worker process exited with status " + std::to_string(WEXITSTATUS(status)) +
                       " without an answer";
  } else {
    finished.ok = child.received[0] == 'R';
    finished.payload = child.received.substr(1);
  }
  return finished;
}

std::vector<FinishedJob> WorkerPool::wait(int timeout_ms) {
  std::vector<FinishedJob> finished;
  while (finished.empty() && !running_.empty()) {
    std::vector<pollfd> fds;
    for (const Child& child : running_) fds.push_back({child.fd, POLLIN, 0});
    int ready = poll(fds.data(), fds.size(), timeout_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      throw_runtime({}, std::string("poll failed: ") + std::strerror(errno));
    }
    if (ready == 0) break;  // timed out
    std::vector<Child> still_running;
    for (std::size_t i = 0; i < running_.size(); ++i) {
      Child& child = running_[i];
      bool done = false;
      if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        char buffer[65536];
        ssize_t n = ::read(child.fd, buffer, sizeof buffer);
        if (n > 0) {
          child.received.append(buffer, static_cast<std::size_t>(n));
        } else if (n == 0 || errno != EINTR) {
          done = true;
        }
      }
      if (done) {
        finished.push_back(reap(child));
      } else {
        still_running.push_back(std::move(child));
      }
    }
    running_ = std::move(still_running);
  }
  return finished;
}

}  // namespace polyarch::sweep
