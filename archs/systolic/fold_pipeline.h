#pragma once
// The SystemC side of a systolic unit: three threads that stream a plan's folds through the
// array, modelled after SCALE-Sim's double-buffered SRAM scheme.
//   loader  fetches fold i's operands (dram_read_bytes) into buffer slot i % slots; the slot is
//           free once fold i - slots has computed. It streams one request at a time, issuing
//           the next as soon as the previous one's last byte left the channel.
//   compute starts fold i once its operands have arrived and fold i - slots's outputs have left
//           the ofmap slot, then takes the fold's cycles (anchored to the unit clock).
//   drain   writes fold i's dram_write_bytes after it computed.
//
// Steady-state fast-forward. Identical folds in a periodic steady state cost the same time
// each, so after the pipeline has shown the same period over two consecutive iterations of a
// repeating level (a run's fold, a block iteration, a GEMM repeat) on all three threads, and no
// other unit used DRAM meanwhile, the remaining iterations are skipped: every thread's timeline
// shifts by iterations x period (exactly iterations x cycles when compute never stalled), and
// the skipped traffic goes to the channel as one aggregated read and one aggregated write, so
// byte counts and channel occupancy stay exact. The requests at both edges of a skip stay
// individual so that the channel's queue looks as it would fold by fold: the loads the loader
// issues before the drain reaches the skip (the head) and the writes still queued or not yet
// issued when the loader's first load after it goes out (the tail). With other initiators on
// the channel the skip is bounded to kChunkFolds folds and re-checked, so contention is seen at
// chunk granularity.
//
// Requests issued at the same instant queue writes first: the loader issues one delta cycle
// late, so the order never depends on how the kernel schedules runnable threads, which a skip
// (whose threads wake from timed waits instead of events) could not reproduce.
#include <cstdint>
#include <exception>
#include <systemc>
#include <deque>
#include <vector>

#include "archs/systolic/cost_model.h"
#include "archs/systolic/fold_cursor.h"
#include "archs/systolic/fold_times.h"
#include "sim/kernel/unit_clock.h"
#include "sim/memory/dram_channel.h"

namespace polyarch::archs::systolic {

struct PipelineRunStats {
  int64_t folds_simulated = 0;
  int64_t folds_skipped = 0;
  int64_t skips = 0;
};

class FoldPipeline : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(FoldPipeline);
  FoldPipeline(sc_core::sc_module_name name, sim::DramChannel& dram, int initiator,
               const sim::UnitClock& clock, int slots, bool fast_forward);

  // Runs every fold of `plan` and returns when the last result is written. Blocking: call from
  // an SC_THREAD. With `last_fold_one_shorter`, the final fold takes one cycle less (SCALE-Sim
  // reports the last cycle's index, not the count).
  PipelineRunStats run(const SystolicPlan& plan, bool last_fold_one_shorter);

  // Buffer slots for the next run (between runs only): how many folds the loader may be ahead
  // of compute. At most kMaxSlots, so that a skip can publish more times than slot waits need.
  void set_slots(int64_t slots);
  static constexpr int64_t kMaxSlots = 6;

 private:
  static constexpr int64_t kChunkFolds = 64;         // skip bound while DRAM is shared
  static constexpr int64_t kMinSkipFolds = 4;        // shorter skips cost more than they save
  static constexpr int64_t kVirtualDepth = 8;        // times published for the end of a skip
  static constexpr int64_t kMaxSpansPerPattern = 4;  // longest steady cycle, in repeat spans

  // Per-fold event times of one thread (loaded: operands arrived; computed: fold finished;
  // drained: results left the ofmap buffer).
  struct Timeline {
    FoldTimes times;
    int64_t published = 0;  // folds [0, published) are done (simulated or skipped)
    sc_core::sc_event progressed;

    sc_core::sc_time at(int64_t fold) const { return times.at(fold); }
    bool has(int64_t fold) const { return fold >= 0 && times.has(fold); }
    void set(int64_t fold, sc_core::sc_time time) { times.set(fold, time); }
    void publish(int64_t fold, sc_core::sc_time time);
    void reset();
  };

  struct Skip {
    int64_t first_fold = 0;
    int64_t folds = 0;
    RepeatLevel level = RepeatLevel::kRun;
    int64_t iterations = 0;           // patterns skipped
    int64_t spans_per_iteration = 1;  // repeat spans (FoldCursor iterations) per pattern
    int64_t pattern_length = 0;       // folds per pattern
    int64_t depth = 0;                // times published per thread for the skip's last folds
    int64_t read_bytes = 0;
    int64_t write_bytes = 0;
    int64_t cycles = 0;
    int64_t compute_period_ticks = 0;  // per iteration, as measured when the skip was decided
    bool shift_known = false;
    sc_core::sc_time shift;       // how much later everything after the skip happens
    int64_t head_read_bytes = 0;  // issued one fold at a time by the loader
    bool bulk_issued = false;
    sim::DramTicket bulk_read;
    sim::DramTicket bulk_write;
  };

  void loader_thread();
  void compute_thread();
  void drain_thread();
  template <typename Body>
  void serve_ops(int64_t& seen_generation, Body body);

  void load_op();
  void compute_op();
  void drain_op();
  // Queues fold `fold`'s operand fetch (call one delta after waking: see the top comment).
  sim::DramTicket issue_load(int64_t fold, int64_t bytes);
  bool try_skip(FoldCursor& cursor);
  // Skips whole patterns of `spans` consecutive iterations of `span` if the pipeline is steady.
  bool try_skip_pattern(FoldCursor& cursor, RepeatLevel level, const RepeatSpan& span,
                        int64_t spans);
  void load_skip_head(Skip& skip, FoldCursor cursor);
  // Whether all three timelines repeat with `pattern_length` folds over the two iterations
  // before `fold` (none earlier than `first_fold`); sets the window's start and compute period.
  bool steady(int64_t pattern_length, int64_t first_fold, int64_t fold,
              sc_core::sc_time& window_start, int64_t& compute_period_ticks) const;
  // True when fold `fold` starts a skip (the loader has decided it), false when it is a
  // simulated fold; waits until the loader has decided.
  bool skip_starts_at(int64_t fold, std::size_t next_skip);
  void wait_for(Timeline& timeline, int64_t fold);
  static std::vector<sc_core::sc_time> times_before(const Timeline& timeline, const Skip& skip);
  void publish_shifted(Timeline& timeline, const Skip& skip);
  void compute_skip(Skip& skip);
  void drain_skip(Skip& skip, FoldCursor& cursor);
  int64_t write_tail(const Skip& skip) const;
  void thread_finished();

  sim::DramChannel& dram_;
  int initiator_;
  const sim::UnitClock& clock_;
  int64_t slots_;
  bool fast_forward_;

  // The op in progress.
  const SystolicPlan* plan_ = nullptr;
  bool last_fold_one_shorter_ = false;
  int64_t total_folds_ = 0;
  int64_t generation_ = 0;
  int threads_finished_ = 0;
  sc_core::sc_event start_;
  sc_core::sc_event finished_;
  Timeline loaded_;
  Timeline computed_;
  Timeline drained_;
  // When each fold's load was issued and its write left the channel, so a skip can tell which
  // writes are still queued or to come when the loader's next load goes out in steady state;
  // when each load left the channel, so the loader resumes after a skip when it would have.
  FoldTimes load_issued_;
  FoldTimes load_sent_;
  FoldTimes write_sent_;
  // A deque: the compute and drain threads hold a Skip& across waits while the loader appends
  // the next skip, and a vector's reallocation left them dangling (found by ASan).
  std::deque<Skip> skips_;
  sc_core::sc_event skip_updated_;
  int64_t last_skip_end_ = 0;
  sc_core::sc_time last_write_complete_;
  sc_core::sc_time compute_end_;
  PipelineRunStats stats_;
  std::exception_ptr error_;
};

}  // namespace polyarch::archs::systolic
