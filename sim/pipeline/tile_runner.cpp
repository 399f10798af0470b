#include "sim/pipeline/tile_runner.h"

#include <algorithm>
#include <cstdlib>

#include "base/error.h"
#include "sim/kernel/sanitizer_stack.h"

namespace polyarch::sim {

namespace {

sc_core::sc_time now() { return sc_core::sc_time_stamp(); }

void wait_until(sc_core::sc_time time) {
  if (time > now()) sc_core::wait(time - now());
}

int64_t ticks(sc_core::sc_time time) { return static_cast<int64_t>(time.value()); }

}  // namespace

void TileRunner::Timeline::reset() {
  times.clear();
  published = 0;
}

void TileRunner::Timeline::publish(int64_t tile, sc_core::sc_time time) {
  set(tile, time);
  published = tile + 1;
  progressed.notify();
}

TileRunner::TileRunner(sc_core::sc_module_name name, DramChannel& dram, int initiator,
                       const UnitClock& clock, int slots, bool fast_forward)
    : sc_core::sc_module(name),
      dram_(dram),
      initiator_(initiator),
      clock_(clock),
      slots_(slots),
      fast_forward_(fast_forward) {
  SC_THREAD(loader_thread);
  SC_THREAD(compute_thread);
  SC_THREAD(drain_thread);
}

void TileRunner::set_slots(int64_t slots) {
  if (slots < 1 || slots > kMaxTileSlots) {
    throw_runtime({}, "tile runner slots must be 1.." + std::to_string(kMaxTileSlots) + ", got " +
                          std::to_string(slots));
  }
  slots_ = slots;
}

TileRunStats TileRunner::run(const TilePlan& plan, bool last_tile_one_shorter) {
  plan_ = &plan;
  last_tile_one_shorter_ = last_tile_one_shorter;
  total_tiles_ = TileCursor(plan).total_tiles();
  loaded_.reset();
  computed_.reset();
  drained_.reset();
  skips_.clear();
  last_skip_end_ = 0;
  last_write_complete_ = compute_end_ = now();
  stats_ = {};
  threads_finished_ = 0;
  ++generation_;
  start_.notify();
  while (threads_finished_ < 3 && !error_) sc_core::wait(finished_);
  if (error_) std::rethrow_exception(error_);
  // The op ends when its last tile computed and its last result reached DRAM.
  wait_until(std::max(compute_end_, last_write_complete_));
  stats_.tiles_simulated = total_tiles_ - stats_.tiles_skipped;
  plan_ = nullptr;
  return stats_;
}

template <typename Body>
void TileRunner::serve_ops(int64_t& seen_generation, Body body) {
  for (;;) {
    while (generation_ == seen_generation) sc_core::wait(start_);
    seen_generation = generation_;
    try {
      body();
    } catch (...) {
      // Threads must not throw into the SystemC kernel; run() rethrows in its caller's thread.
      if (!error_) error_ = std::current_exception();
    }
    thread_finished();
  }
}

void TileRunner::thread_finished() {
  ++threads_finished_;
  finished_.notify();
}

void TileRunner::loader_thread() {
  clear_stale_coroutine_stack_poison();
  int64_t seen = 0;
  serve_ops(seen, [this] { load_op(); });
}
void TileRunner::compute_thread() {
  clear_stale_coroutine_stack_poison();
  int64_t seen = 0;
  serve_ops(seen, [this] { compute_op(); });
}
void TileRunner::drain_thread() {
  clear_stale_coroutine_stack_poison();
  int64_t seen = 0;
  serve_ops(seen, [this] { drain_op(); });
}

void TileRunner::wait_for(Timeline& timeline, int64_t tile) {
  while (timeline.published <= tile) sc_core::wait(timeline.progressed);
  wait_until(timeline.at(tile));
}

bool TileRunner::skip_starts_at(int64_t tile, std::size_t next_skip) {
  for (;;) {
    if (next_skip < skips_.size() && skips_[next_skip].first_tile == tile) return true;
    if (loaded_.published > tile) return false;
    sc_core::wait(loaded_.progressed);
  }
}

void TileRunner::load_op() {
  TileCursor cursor(*plan_);
  while (!cursor.done()) {
    const int64_t tile = cursor.index();
    // Buffer slot tile % slots holds tile - slots's operands until that tile has computed.
    if (tile >= slots_) wait_for(computed_, tile - slots_);
    sc_core::wait(sc_core::SC_ZERO_TIME);  // writes issued at this instant go first
    if (fast_forward_ && try_skip(cursor)) continue;
    const DramTicket ticket = issue_load(tile, cursor.tile().dram_read_bytes);
    loaded_.publish(tile, ticket.complete);
    load_sent_.set(tile, ticket.sent);
    wait_until(ticket.sent);
    cursor.advance();
  }
}

DramTicket TileRunner::issue_load(int64_t tile, int64_t bytes) {
  load_issued_.set(tile, now());
  return bytes > 0 ? dram_.request(initiator_, bytes, false) : DramTicket{now(), now()};
}

void TileRunner::compute_op() {
  TileCursor cursor(*plan_);
  std::size_t next_skip = 0;
  // Tile ends are anchor + a whole number of cycles, rounded once (see UnitClock); the anchor
  // moves only when compute had to wait for memory.
  sc_core::sc_time anchor = now();
  int64_t anchor_cycles = 0;
  int64_t last_stall = -1;
  while (!cursor.done()) {
    const int64_t tile = cursor.index();
    if (skip_starts_at(tile, next_skip)) {
      Skip& skip = skips_[next_skip++];
      const sc_core::sc_time before = computed_.at(tile - 1);
      const bool never_stalled = last_stall < tile - 2 * skip.pattern_length;
      if (never_stalled) {
        // Compute-bound: the period is exactly the skipped cycles; keep the anchor.
        anchor_cycles += skip.cycles;
        skip.shift = clock_.time_of(anchor_cycles, anchor) - before;
      } else {
        skip.shift = sc_core::sc_time::from_value(
            static_cast<uint64_t>(skip.compute_period_ticks * skip.iterations));
      }
      skip.shift_known = true;
      skip_updated_.notify();
      publish_shifted(computed_, skip);
      compute_skip(skip);
      sc_core::sc_time end = before + skip.shift;
      // Operands of the skipped tiles must have arrived before the last of them computes.
      if (skip.bulk_read.complete > end || now() > end) {
        end = std::max(skip.bulk_read.complete, now());
        anchor = end;
        anchor_cycles = 0;
        last_stall = tile + skip.tiles - 1;
      } else if (!never_stalled) {
        anchor = end;
        anchor_cycles = 0;
        last_stall = tile + skip.tiles - 1;
      }
      wait_until(end);
      cursor.skip(skip.level, skip.iterations * skip.spans_per_iteration);
      continue;
    }
    wait_for(loaded_, tile);
    if (tile >= slots_) wait_for(drained_, tile - slots_);
    if (now() > clock_.time_of(anchor_cycles, anchor)) {
      anchor = now();
      anchor_cycles = 0;
      last_stall = tile;
    }
    int64_t cycles = cursor.tile().cycles;
    if (last_tile_one_shorter_ && tile == total_tiles_ - 1)
      cycles = std::max<int64_t>(0, cycles - 1);
    anchor_cycles += cycles;
    wait_until(clock_.time_of(anchor_cycles, anchor));
    computed_.publish(tile, now());
    cursor.advance();
  }
  compute_end_ = now();
}

void TileRunner::compute_skip(Skip& skip) {
  while (!skip.bulk_issued) sc_core::wait(skip_updated_);
}

void TileRunner::drain_op() {
  TileCursor cursor(*plan_);
  std::size_t next_skip = 0;
  while (!cursor.done()) {
    const int64_t tile = cursor.index();
    if (skip_starts_at(tile, next_skip)) {
      drain_skip(skips_[next_skip++], cursor);
      continue;
    }
    wait_for(computed_, tile);
    const int64_t bytes = cursor.tile().dram_write_bytes;
    write_sent_.set(tile, now());
    if (bytes > 0) {
      const DramTicket ticket = dram_.request(initiator_, bytes, true);
      last_write_complete_ = std::max(last_write_complete_, ticket.complete);
      write_sent_.set(tile, ticket.sent);
      wait_until(ticket.sent);
    }
    drained_.publish(tile, now());
    cursor.advance();
  }
}

// How many of a skip's last tiles keep their writes individual. In steady state, the writes
// queued or still to come when the loader issues its first load after the skip are those whose
// counterparts, one iteration before the skip, left the channel after the load of that
// iteration's first tile was issued. Later writes leave later, so they form a suffix.
int64_t TileRunner::write_tail(const Skip& skip) const {
  const int64_t reference = skip.first_tile - skip.pattern_length;
  if (!load_issued_.has(reference)) return 0;
  const sc_core::sc_time load_issued = load_issued_.at(reference);
  int64_t tail = 0;
  // A tile without a time had its write aggregated into an earlier skip: it left early.
  for (int64_t back = 1; back <= skip.depth && reference - back >= 0; ++back) {
    if (write_sent_.has(reference - back) && write_sent_.at(reference - back) > load_issued) {
      tail = back;
    }
  }
  return tail;
}

// The drain is the last thread to reach a skip, so every request of the tiles before it is
// already queued: the aggregated transfers go to the channel behind them and the loader's head,
// as the skipped tiles' requests would have. The write tail (write_tail) is left out of the
// aggregate and issued one by one, timed by compute's shifted times, so the channel sees it in
// tile-by-tile order next to the loader's first load beyond the skip.
void TileRunner::drain_skip(Skip& skip, TileCursor& cursor) {
  while (!skip.shift_known) sc_core::wait(skip_updated_);
  const int64_t tail = write_tail(skip);
  const int64_t tail_start = skip.first_tile + skip.tiles - tail;
  const int64_t whole = skip.iterations - (tail + skip.pattern_length - 1) / skip.pattern_length;
  int64_t write_bytes = 0;
  if (whole > 0) {
    write_bytes = skip.write_bytes / skip.iterations * whole;
    cursor.skip(skip.level, whole * skip.spans_per_iteration);
  }
  for (; cursor.index() < tail_start; cursor.advance()) {
    write_bytes += cursor.tile().dram_write_bytes;
  }
  const DramTicket none{now(), now()};
  const int64_t read_bytes = skip.read_bytes - skip.head_read_bytes;
  skip.bulk_read = read_bytes > 0 ? dram_.request(initiator_, read_bytes, false) : none;
  skip.bulk_write = write_bytes > 0 ? dram_.request(initiator_, write_bytes, true) : none;
  last_write_complete_ = std::max(last_write_complete_, skip.bulk_write.complete);
  skip.bulk_issued = true;
  skip_updated_.notify();
  // Compute's slot waits may reach into the aggregated tiles: give them shifted times.
  const int64_t end = skip.first_tile + skip.tiles;
  const std::vector<sc_core::sc_time> before = times_before(drained_, skip);
  for (int64_t tile = end - skip.depth; tile < tail_start; ++tile) {
    drained_.set(tile, before[tile - (end - skip.depth)] + skip.shift);
  }
  drained_.published = tail_start;
  drained_.progressed.notify();
}

// The times of the `depth` tiles before a skip, copied out of the ring before any shifted time
// is written: a skip of any length may land its last tiles on the ring slots of these.
std::vector<sc_core::sc_time> TileRunner::times_before(const Timeline& timeline, const Skip& skip) {
  std::vector<sc_core::sc_time> times;
  for (int64_t tile = skip.first_tile - skip.depth; tile < skip.first_tile; ++tile) {
    times.push_back(timeline.at(tile));
  }
  return times;
}

// A skip shifts the timeline: tile f after it happens `shift` later than tile f - tiles did.
// Only the last `depth` tiles of the skip are ever read (slot dependencies reach back at most
// `slots` tiles; steadiness checks use simulated tiles only).
void TileRunner::publish_shifted(Timeline& timeline, const Skip& skip) {
  const int64_t end = skip.first_tile + skip.tiles;
  const std::vector<sc_core::sc_time> before = times_before(timeline, skip);
  for (int64_t tile = end - skip.depth; tile < end; ++tile) {
    timeline.set(tile, before[tile - (end - skip.depth)] + skip.shift);
  }
  timeline.published = end;
  timeline.progressed.notify();
}

bool TileRunner::steady(int64_t pattern_length, int64_t first_tile, int64_t tile,
                        sc_core::sc_time& window_start, int64_t& compute_period_ticks) const {
  bool first = true;
  for (const Timeline* timeline : {&loaded_, &computed_, &drained_}) {
    const int64_t last = std::min(timeline->published, tile) - 1;
    const int64_t oldest = last - 2 * pattern_length;
    const int64_t middle = last - pattern_length;
    if (oldest < first_tile || !timeline->has(oldest) || !timeline->has(middle) ||
        !timeline->has(last)) {
      return false;
    }
    const int64_t t0 = ticks(timeline->at(oldest));
    const int64_t t1 = ticks(timeline->at(middle));
    const int64_t t2 = ticks(timeline->at(last));
    // One tick of slack: a compute-bound period of c cycles rounds to the tick either way.
    if (std::abs((t2 - t1) - (t1 - t0)) > 1) return false;
    if (first || timeline->at(oldest) < window_start) window_start = timeline->at(oldest);
    if (timeline == &computed_) compute_period_ticks = t2 - t1;
    first = false;
  }
  return true;
}

bool TileRunner::try_skip(TileCursor& cursor) {
  for (RepeatLevel level : {RepeatLevel::kPlan, RepeatLevel::kBlock, RepeatLevel::kRun}) {
    const std::optional<RepeatSpan> span = cursor.span(level);
    if (!span) continue;
    // A steady state may repeat every few spans rather than every one: a read and a write
    // sharing the channel can settle into an alternating pair of periods.
    for (int64_t spans = 1; spans <= kMaxSpansPerPattern; ++spans) {
      if (try_skip_pattern(cursor, level, *span, spans)) return true;
    }
  }
  return false;
}

bool TileRunner::try_skip_pattern(TileCursor& cursor, RepeatLevel level, const RepeatSpan& span,
                                  int64_t spans) {
  const int64_t tile = cursor.index();
  const int64_t pattern_length = span.length * spans;
  if (span.iteration < 3 * spans) return false;
  int64_t iterations = (span.iterations - span.iteration) / spans;
  // The op's last tile stays simulated: in SCALE-Sim mode it is one cycle shorter.
  iterations = std::min(iterations, (total_tiles_ - 1 - tile) / pattern_length);
  if (dram_.initiator_count() > 1) {
    iterations = std::min(iterations, std::max<int64_t>(1, kChunkTiles / pattern_length));
  }
  if (iterations * pattern_length < kMinSkipTiles) return false;
  // Alone on the channel, a skip's shifted times are as good as simulated ones; sharing it,
  // each chunk must be followed by newly simulated tiles before the next skip, so that a
  // unit that started using DRAM meanwhile is seen.
  const int64_t first_tile =
      dram_.initiator_count() > 1 ? std::max(span.first_index, last_skip_end_) : span.first_index;
  sc_core::sc_time window_start;
  int64_t compute_period_ticks = 0;
  if (!steady(pattern_length, first_tile, tile, window_start, compute_period_ticks)) {
    return false;
  }
  if (dram_.others_active_since(initiator_, window_start)) return false;

  // Shifted times are published for the skip's last `depth` tiles from the `depth` tiles before
  // it; those must all have times (every thread skips the same tiles, so the loader's
  // timeline, which is up to date, tells for all three). Slot waits reach back `slots` tiles.
  int64_t depth = 0;
  while (depth < std::min(kVirtualDepth, iterations * pattern_length) &&
         loaded_.has(tile - 1 - depth)) {
    ++depth;
  }
  if (depth <= slots_) return false;

  Skip skip;
  skip.first_tile = tile;
  skip.level = level;
  skip.iterations = iterations;
  skip.spans_per_iteration = spans;
  skip.pattern_length = pattern_length;
  skip.tiles = iterations * pattern_length;
  skip.depth = depth;
  skip.compute_period_ticks = compute_period_ticks;
  skip.read_bytes = iterations * spans * span.read_bytes;
  skip.write_bytes = iterations * spans * span.write_bytes;
  skip.cycles = iterations * spans * span.cycles;
  skips_.push_back(skip);
  const std::size_t skip_index = skips_.size() - 1;
  last_skip_end_ = tile + skip.tiles;
  stats_.skips += 1;
  stats_.tiles_skipped += skip.tiles;
  loaded_.progressed.notify();  // compute and drain learn that `tile` starts a skip

  load_skip_head(skips_[skip_index], cursor);
  while (!skips_[skip_index].shift_known) sc_core::wait(skip_updated_);
  publish_shifted(loaded_, skips_[skip_index]);
  // The next request must queue behind the aggregated ones, and, as tile by tile, behind the
  // skip's last load leaving the channel (the aggregate read, sent before the aggregate
  // write, may have left earlier).
  while (!skips_[skip_index].bulk_issued) sc_core::wait(skip_updated_);
  wait_until(std::max(skips_[skip_index].bulk_read.sent,
                      load_sent_.at(tile - 1) + skips_[skip_index].shift));
  cursor.skip(level, iterations * spans);
  return true;
}

// Tile by tile, the loader would fetch the skip's first tiles while the drain still works on
// the tiles before it (up to `slots` ahead of compute: later ones wait for skipped computes).
// Those loads go out one by one, as they would have, until the drain reaches the skip and
// queues the aggregate; otherwise the channel would idle for them. `cursor` is at the skip.
void TileRunner::load_skip_head(Skip& skip, TileCursor cursor) {
  for (int64_t ahead = 0; ahead < std::min(slots_, skip.tiles); ++ahead) {
    const int64_t tile = skip.first_tile + ahead;
    if (ahead > 0) {
      if (tile >= slots_) wait_for(computed_, tile - slots_);
      sc_core::wait(sc_core::SC_ZERO_TIME);  // as in load_op
    }
    if (skip.bulk_issued) return;
    const int64_t bytes = cursor.tile().dram_read_bytes;
    const DramTicket ticket = issue_load(tile, bytes);
    skip.head_read_bytes += bytes;
    wait_until(ticket.sent);
    cursor.advance();
  }
}

}  // namespace polyarch::sim
