#include "sweep/job_dispatch.h"

#include <chrono>
#include <sstream>
#include <thread>

#include "base/error.h"

namespace polyarch::sweep {

namespace {

// The protocol. Each of a rank's `slots` asks for work with kReady and, after a job, with
// kResult (the answer is the next request); rank 0 replies to every request with kJob or kStop.
// A rank is done when all its slots have been stopped.
enum Tag : int { kReady = 1, kResult = 2, kJob = 3, kStop = 4 };

// How long a loop with nothing to do sleeps: short against a point's simulation (milliseconds
// to seconds), long enough that waiting ranks do not spin a core.
constexpr int kIdleWaitMs = 2;

std::string encode_finished(std::size_t index, const FinishedJob& finished) {
  std::ostringstream text;
  text.precision(17);
  text << index << ' ' << (finished.ok ? 1 : 0) << ' ' << finished.wall_s << '\n'
       << finished.payload;
  return text.str();
}

std::pair<std::size_t, FinishedJob> decode_finished(const std::string& bytes) {
  std::istringstream text(bytes);
  std::size_t index = 0;
  int ok = 0;
  FinishedJob finished;
  text >> index >> ok >> finished.wall_s;
  if (!text || text.get() != '\n') throw_runtime({}, "malformed job answer from an MPI rank");
  finished.ok = ok != 0;
  finished.payload = bytes.substr(static_cast<std::size_t>(text.tellg()));
  finished.tag = index;
  return {index, finished};
}

std::size_t decode_job(const std::string& bytes) {
  std::istringstream text(bytes);
  std::size_t index = 0;
  if (!(text >> index)) throw_runtime({}, "malformed job from MPI rank 0");
  return index;
}

void idle_wait() { std::this_thread::sleep_for(std::chrono::milliseconds(kIdleWaitMs)); }

}  // namespace

void dispatch_jobs(const MpiWorld& world, const std::vector<std::size_t>& ids, int slots,
                   const RunJob& run, const JobFinished& finished) {
  const std::size_t job_count = ids.size();
  WorkerPool pool(slots);
  std::size_t next = 0;
  std::size_t remote_running = 0;
  const int remote_slots = (world.size() - 1) * slots;
  int stops_sent = 0;
  while (next < job_count || !pool.idle() || remote_running > 0 || stops_sent < remote_slots) {
    bool progressed = false;
    while (next < job_count && !pool.full()) {
      const std::size_t id = ids[next++];
      pool.start(id, [&run, id] { return run(id); });
    }
    while (std::optional<MpiMessage> message = world.poll()) {
      progressed = true;
      if (message->tag == kResult) {
        auto [id, answer] = decode_finished(message->bytes);
        --remote_running;
        finished(id, answer);
      } else if (message->tag != kReady) {
        throw_runtime({}, "unexpected MPI message tag " + std::to_string(message->tag));
      }
      if (next < job_count) {
        world.send(message->source, kJob, std::to_string(ids[next++]));
        ++remote_running;
      } else {
        world.send(message->source, kStop, "");
        ++stops_sent;
      }
    }
    // Waiting on the local pool is bounded so that remote answers are taken promptly.
    for (const FinishedJob& answer : pool.wait(pool.idle() ? 0 : kIdleWaitMs)) {
      progressed = true;
      finished(answer.tag, answer);
    }
    if (!progressed && pool.idle()) idle_wait();
  }
}

void serve_jobs(const MpiWorld& world, int slots, const RunJob& run) {
  WorkerPool pool(slots);
  for (int slot = 0; slot < slots; ++slot) world.send(0, kReady, "");
  int stopped = 0;
  while (stopped < slots) {
    bool progressed = false;
    while (std::optional<MpiMessage> message = world.poll()) {
      progressed = true;
      if (message->tag == kStop) {
        ++stopped;
      } else if (message->tag == kJob) {
        const std::size_t id = decode_job(message->bytes);
        pool.start(id, [&run, id] { return run(id); });
      } else {
        throw_runtime({}, "unexpected MPI message tag " + std::to_string(message->tag));
      }
    }
    for (const FinishedJob& answer : pool.wait(pool.idle() ? 0 : kIdleWaitMs)) {
      progressed = true;
      world.send(0, kResult, encode_finished(answer.tag, answer));
    }
    if (!progressed && pool.idle()) idle_wait();
  }
}

}  // namespace polyarch::sweep
