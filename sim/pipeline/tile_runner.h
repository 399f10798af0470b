#pragma once
// Runs a unit's tiles (tile_plan.h) against the shared DRAM channel with three SystemC threads,
// modelled after SCALE-Sim's double-buffered SRAM scheme; the systolic, simd and dataflow units
// all execute their plans through it (a systolic fold, a simd step, a dataflow phase iteration
// are each a tile).
//   loader  fetches tile i's operands (dram_read_bytes) into buffer slot i % slots; the slot is
//           free once tile i - slots has computed. It streams one request at a time, issuing
//           the next as soon as the previous one's last byte left the channel.
//   compute starts tile i once its operands have arrived and tile i - slots's outputs have left
//           the output slot, then takes the tile's cycles (anchored to the unit clock).
//   drain   writes tile i's dram_write_bytes after it computed.
//
// Steady-state fast-forward. Identical tiles in a periodic steady state cost the same time
// each, so after the runner has shown the same period over two consecutive iterations of a
// repeating level (a run's tile, a block iteration, a plan repeat) on all three threads, and no
// other unit used DRAM meanwhile, the remaining iterations are skipped: every thread's timeline
// shifts by iterations x period (exactly iterations x cycles when compute never stalled), and
// the skipped traffic goes to the channel as one aggregated read and one aggregated write, so
// byte counts and channel occupancy stay exact. The requests at both edges of a skip stay
// individual so that the channel's queue looks as it would tile by tile: the loads the loader
// issues before the drain reaches the skip (the head) and the writes still queued or not yet
// issued when the loader's first load after it goes out (the tail). With other initiators on
// the channel the skip is bounded to kChunkTiles tiles and re-checked, so contention is seen at
// chunk granularity.
//
// Requests issued at the same instant queue writes first: the loader issues one delta cycle
// late, so the order never depends on how the kernel schedules runnable threads, which a skip
// (whose threads wake from timed waits instead of events) could not reproduce.
#include <cstdint>
#include <deque>
#include <exception>
#include <systemc>
#include <vector>

#include "sim/kernel/unit_clock.h"
#include "sim/memory/dram_channel.h"
#include "sim/pipeline/tile_cursor.h"
#include "sim/pipeline/tile_plan.h"
#include "sim/pipeline/tile_slots.h"
#include "sim/pipeline/tile_times.h"

namespace polyarch::sim {

struct TileRunStats {
  int64_t tiles_simulated = 0;
  int64_t tiles_skipped = 0;
  int64_t skips = 0;
};

class TileRunner : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(TileRunner);
  TileRunner(sc_core::sc_module_name name, DramChannel& dram, int initiator, const UnitClock& clock,
             int slots, bool fast_forward);

  // Runs every tile of `plan` and returns when the last result is written. Blocking: call from
  // an SC_THREAD. With `last_tile_one_shorter`, the final tile takes one cycle less (SCALE-Sim
  // reports the last cycle's index, not the count).
  TileRunStats run(const TilePlan& plan, bool last_tile_one_shorter);

  // Buffer slots for the next run (between runs only): how many tiles the loader may be ahead
  // of compute. At most kMaxTileSlots (tile_slots.h), so that a skip can publish more times
  // than slot waits need.
  void set_slots(int64_t slots);

 private:
  static constexpr int64_t kChunkTiles = 64;         // skip bound while DRAM is shared
  static constexpr int64_t kMinSkipTiles = 4;        // shorter skips cost more than they save
  static constexpr int64_t kVirtualDepth = 8;        // times published for the end of a skip
  static constexpr int64_t kMaxSpansPerPattern = 4;  // longest steady cycle, in repeat spans

  // Per-tile event times of one thread (loaded: operands arrived; computed: tile finished;
  // drained: results left the output buffer).
  struct Timeline {
    TileTimes times;
    int64_t published = 0;  // tiles [0, published) are done (simulated or skipped)
    sc_core::sc_event progressed;

    sc_core::sc_time at(int64_t tile) const { return times.at(tile); }
    bool has(int64_t tile) const { return tile >= 0 && times.has(tile); }
    void set(int64_t tile, sc_core::sc_time time) { times.set(tile, time); }
    void publish(int64_t tile, sc_core::sc_time time);
    void reset();
  };

  struct Skip {
    int64_t first_tile = 0;
    int64_t tiles = 0;
    RepeatLevel level = RepeatLevel::kRun;
    int64_t iterations = 0;           // patterns skipped
    int64_t spans_per_iteration = 1;  // repeat spans (TileCursor iterations) per pattern
    int64_t pattern_length = 0;       // tiles per pattern
    int64_t depth = 0;                // times published per thread for the skip's last tiles
    int64_t read_bytes = 0;
    int64_t write_bytes = 0;
    int64_t cycles = 0;
    int64_t compute_period_ticks = 0;  // per iteration, as measured when the skip was decided
    bool shift_known = false;
    sc_core::sc_time shift;       // how much later everything after the skip happens
    int64_t head_read_bytes = 0;  // issued one tile at a time by the loader
    bool bulk_issued = false;
    DramTicket bulk_read;
    DramTicket bulk_write;
  };

  void loader_thread();
  void compute_thread();
  void drain_thread();
  template <typename Body>
  void serve_ops(int64_t& seen_generation, Body body);

  void load_op();
  void compute_op();
  void drain_op();
  // Queues tile `tile`'s operand fetch (call one delta after waking: see the top comment).
  DramTicket issue_load(int64_t tile, int64_t bytes);
  bool try_skip(TileCursor& cursor);
  // Skips whole patterns of `spans` consecutive iterations of `span` if the threads are in steady
  // state.
  bool try_skip_pattern(TileCursor& cursor, RepeatLevel level, const RepeatSpan& span,
                        int64_t spans);
  void load_skip_head(Skip& skip, TileCursor cursor);
  // Whether all three timelines repeat with `pattern_length` tiles over the two iterations
  // before `tile` (none earlier than `first_tile`); sets the window's start and compute period.
  bool steady(int64_t pattern_length, int64_t first_tile, int64_t tile,
              sc_core::sc_time& window_start, int64_t& compute_period_ticks) const;
  // True when tile `tile` starts a skip (the loader has decided it), false when it is a
  // simulated tile; waits until the loader has decided.
  bool skip_starts_at(int64_t tile, std::size_t next_skip);
  void wait_for(Timeline& timeline, int64_t tile);
  static std::vector<sc_core::sc_time> times_before(const Timeline& timeline, const Skip& skip);
  void publish_shifted(Timeline& timeline, const Skip& skip);
  void compute_skip(Skip& skip);
  void drain_skip(Skip& skip, TileCursor& cursor);
  int64_t write_tail(const Skip& skip) const;
  void thread_finished();

  DramChannel& dram_;
  int initiator_;
  const UnitClock& clock_;
  int64_t slots_;
  bool fast_forward_;

  // The op in progress.
  const TilePlan* plan_ = nullptr;
  bool last_tile_one_shorter_ = false;
  int64_t total_tiles_ = 0;
  int64_t generation_ = 0;
  int threads_finished_ = 0;
  sc_core::sc_event start_;
  sc_core::sc_event finished_;
  Timeline loaded_;
  Timeline computed_;
  Timeline drained_;
  // When each tile's load was issued and its write left the channel, so a skip can tell which
  // writes are still queued or to come when the loader's next load goes out in steady state;
  // when each load left the channel, so the loader resumes after a skip when it would have.
  TileTimes load_issued_;
  TileTimes load_sent_;
  TileTimes write_sent_;
  // A deque: the compute and drain threads hold a Skip& across waits while the loader appends
  // the next skip, and a vector's reallocation left them dangling (found by ASan).
  std::deque<Skip> skips_;
  sc_core::sc_event skip_updated_;
  int64_t last_skip_end_ = 0;
  sc_core::sc_time last_write_complete_;
  sc_core::sc_time compute_end_;
  TileRunStats stats_;
  std::exception_ptr error_;
};

}  // namespace polyarch::sim
