#include "sim/memory/dram/column_run.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "base/random_draw.h"
#include "sim/memory/dram/checker.h"
#include "sim/memory/dram/dram_system.h"
#include "sim/memory/dram/presets.h"

namespace polyarch::sim::dram {
namespace {

// One request stream, served both ways: whole-run fast-forward on and off.
struct Stream {
  std::string name;
  std::vector<Request> requests;
  bool one_at_a_time = false;  // serve() each request as the jedec backend does; else run()
};

struct Outcome {
  std::vector<int64_t> completions;
  std::vector<std::vector<Command>> commands;  // per pseudo-channel
  DramStats stats;
};

Outcome simulate(const DramConfig& config, const Stream& stream, bool column_runs) {
  DramSystem system(config, column_runs);
  Outcome outcome;
  if (stream.one_at_a_time) {
    for (const Request& request : stream.requests) {
      outcome.completions.push_back(system.serve(std::span<const Request>(&request, 1)));
    }
  } else {
    for (const Request& request : stream.requests) system.enqueue(request);
    system.run();
    outcome.completions = system.completion_cycles();
  }
  for (int channel = 0; channel < config.organization.channels; ++channel) {
    for (int pc = 0; pc < config.organization.pseudo_channels; ++pc) {
      outcome.commands.push_back(system.commands(channel, pc));
    }
  }
  outcome.stats = system.stats();
  return outcome;
}

void expect_same_stats(const DramStats& fast, const DramStats& reference,
                       const std::string& context) {
  for (int64_t DramStats::*counter :
       {&DramStats::read_bursts, &DramStats::write_bursts, &DramStats::bytes_read,
        &DramStats::bytes_written, &DramStats::row_hits, &DramStats::row_misses,
        &DramStats::row_conflicts, &DramStats::refreshes, &DramStats::total_burst_latency_cycles,
        &DramStats::first_arrival_cycle, &DramStats::last_completion_cycle}) {
    EXPECT_EQ(fast.*counter, reference.*counter) << context;
  }
  EXPECT_EQ(fast.commands, reference.commands) << context;
}

// The fast path must issue the very commands, at the very cycles, that deciding each command
// on its own issues; and the independent checker must accept them.
void expect_identical(const DramConfig& config, const Stream& stream) {
  const std::string context =
      config.name + " " + std::string(address_scheme_name(config.controller.address_scheme)) + " " +
      std::string(page_policy_name(config.controller.page_policy)) + " " + stream.name;
  const Outcome fast = simulate(config, stream, true);
  const Outcome reference = simulate(config, stream, false);
  EXPECT_EQ(fast.completions, reference.completions) << context;
  ASSERT_EQ(fast.commands.size(), reference.commands.size());
  for (size_t pc = 0; pc < fast.commands.size(); ++pc) {
    ASSERT_EQ(fast.commands[pc].size(), reference.commands[pc].size()) << context;
    for (size_t i = 0; i < fast.commands[pc].size(); ++i) {
      ASSERT_EQ(fast.commands[pc][i], reference.commands[pc][i])
          << context << ": command " << i << " of pseudo-channel " << pc << ": "
          << describe(fast.commands[pc][i]) << " vs " << describe(reference.commands[pc][i]);
    }
    const auto violation = check_command_stream(config, fast.commands[pc]);
    EXPECT_FALSE(violation.has_value()) << context << ": " << violation->message;
  }
  expect_same_stats(fast.stats, reference.stats, context);
}

// A DMA engine's traffic: `requests` requests of `bytes` each, reads then a write every
// `write_every`-th request, `gap` cycles apart, walking addresses `stride` bytes apart.
Stream dma_stream(std::string name, int requests, int64_t bytes, int64_t stride, int64_t gap,
                  int write_every, bool one_at_a_time) {
  Stream stream{.name = std::move(name), .requests = {}, .one_at_a_time = one_at_a_time};
  for (int i = 0; i < requests; ++i) {
    const bool is_write = write_every > 0 && i % write_every == write_every - 1;
    stream.requests.push_back({.addr = (is_write ? (int64_t{1} << 26) : 0) + i * stride,
                               .is_write = is_write,
                               .bytes = bytes,
                               .arrival_cycle = i * gap});
  }
  return stream;
}

// Two requesters interleaving sequential streams in two regions; one of them writes.
Stream two_requesters(bool one_at_a_time) {
  Stream stream{.name = "two requesters", .requests = {}, .one_at_a_time = one_at_a_time};
  for (int i = 0; i < 24; ++i) {
    stream.requests.push_back({.addr = i * 2048, .bytes = 2048, .arrival_cycle = i * 40});
    stream.requests.push_back({.addr = (int64_t{1} << 24) + i * 1024,
                               .is_write = i % 3 == 0,
                               .bytes = 1024,
                               .arrival_cycle = i * 40 + 7});
  }
  return stream;
}

// Random requests over `rows` rows' worth of addresses (with several ranks, past the first).
Stream random_mix(uint64_t seed, const DramConfig& config, int64_t rows = 16) {
  std::mt19937_64 random(seed);
  Stream stream{.name = "random mix seed " + std::to_string(seed), .requests = {}};
  for (int i = 0; i < 150; ++i) {
    const int64_t addr = random_int(random, 0, rows * config.row_bytes() - 1);
    const bool is_write = random_chance(random, 0.3);
    const int64_t bytes = random_int(random, 1, 16 * config.bytes_per_burst());
    stream.requests.push_back(
        {.addr = addr, .is_write = is_write, .bytes = bytes, .arrival_cycle = 20 * i});
  }
  return stream;
}

// One burst each at random addresses anywhere in the device, served one at a time and arriving
// faster than they are served: mostly one burst alone in its controller's queue, row misses and
// conflicts whose PRE and ACT meet refreshes falling due (about eight per rank on DDR4-3200).
Stream single_bursts(const DramConfig& config) {
  std::mt19937_64 random(5);
  Stream stream{.name = "random single bursts", .requests = {}, .one_at_a_time = true};
  const int64_t bursts = config.capacity_bytes() / config.bytes_per_burst();
  for (int i = 0; i < 4000; ++i) {
    stream.requests.push_back({.addr = random_int(random, 0, bursts - 1) * config.bytes_per_burst(),
                               .is_write = random_chance(random, 0.3),
                               .bytes = config.bytes_per_burst(),
                               .arrival_cycle = 25 * i});
  }
  return stream;
}

std::vector<Stream> streams(const DramConfig& config) {
  const int64_t row = config.row_bytes();
  std::vector<Stream> all;
  // Long enough to cross a refresh: 384 KiB sequential, 24k cycles of DDR4-3200.
  all.push_back(dma_stream("sequential reads", 24, 16384, 16384, 0, 0, true));
  all.push_back(dma_stream("sequential reads and writes", 24, 8192, 8192, 300, 4, true));
  all.push_back(dma_stream("row-strided reads", 64, 512, row + 192, 50, 0, true));
  all.push_back(dma_stream("burst-strided reads, enqueued together", 400, 64,
                           3 * config.bytes_per_burst(), 2, 5, false));
  all.push_back(two_requesters(true));
  all.push_back(two_requesters(false));
  all.push_back(random_mix(7, config));
  all.push_back(single_bursts(config));
  return all;
}

// DDR3's one bank group (as configs/arch/tpu_v1_like_jedec.yaml has it): a stream's bursts
// stay in one bank for a whole row, the longest runs.
DramConfig one_bank_group() {
  DramConfig config = ddr4_3200();
  config.name = "one bank group";
  config.organization.bank_groups = 1;
  config.organization.banks_per_group = 8;
  config.timing.tCCD_L = config.timing.tCCD_S;
  config.timing.tRRD_L = config.timing.tRRD_S;
  config.timing.tWTR_L = config.timing.tWTR_S;
  return config;
}

TEST(ColumnRun, FastPathIssuesTheSameCommandsAsPerCommandScheduling) {
  std::vector<DramConfig> configs = {one_bank_group()};
  for (std::string_view name : preset_names()) configs.push_back(preset(name));
  for (const DramConfig& base : configs) {
    for (const auto& [scheme, policy] :
         {std::pair{AddressScheme::kBankInterleaved, PagePolicy::kOpen},
          std::pair{AddressScheme::kRowBankCol, PagePolicy::kClosed}}) {
      DramConfig config = base;
      config.controller.address_scheme = scheme;
      config.controller.page_policy = policy;
      for (const Stream& stream : streams(config)) expect_identical(config, stream);
    }
  }
}

TEST(ColumnRun, ShallowQueuesAndDisabledRefreshKeepTheSameCommands) {
  for (int depth : {1, 2, 8}) {
    DramConfig config = ddr4_3200();
    config.controller.queue_depth = depth;
    config.controller.refresh = depth != 2;
    for (const Stream& stream : streams(config)) expect_identical(config, stream);
  }
}

// Several ranks share the data bus: another rank's burst may slip between the run's commands
// (tBL + tRTRS may be shorter than tCCD_L), and each rank refreshes on its own schedule. The
// streams reach every rank under each scheme (the rank field sits above the banks), staggered
// and simultaneous refresh, open and closed page.
TEST(ColumnRun, SeveralRanksKeepTheSameCommands) {
  for (int ranks : {2, 4}) {
    for (const auto& [scheme, policy, staggered] :
         {std::tuple{AddressScheme::kBankInterleaved, PagePolicy::kOpen, true},
          std::tuple{AddressScheme::kRowColBank, PagePolicy::kOpen, false},
          std::tuple{AddressScheme::kRowBankCol, PagePolicy::kClosed, true}}) {
      for (DramConfig config : {ddr4_3200(), one_bank_group(), hbm2e_3200()}) {
        config.organization.ranks = ranks;
        config.name += " " + std::to_string(ranks) + " ranks";
        config.controller.address_scheme = scheme;
        config.controller.page_policy = policy;
        config.controller.refresh_staggered = staggered;
        for (const Stream& stream : streams(config)) expect_identical(config, stream);
        const int64_t all_ranks_rows =
            int64_t{2} * config.pseudo_channel_count() * ranks * config.banks_per_pseudo_channel();
        expect_identical(config, random_mix(11, config, all_ranks_rows));
        // Per-bank refresh: one bank at a time is held, the others run on.
        config.controller.refresh_per_bank = true;
        config.timing.tREFIb = config.timing.tREFI / (ranks * config.banks_per_pseudo_channel());
        config.timing.tRFCb = std::min(config.timing.tRFC / 4, config.timing.tREFIb / 2);
        for (const Stream& stream : streams(config)) expect_identical(config, stream);
        expect_identical(config, random_mix(12, config, all_ranks_rows));
      }
    }
  }
}

// Refreshes falling due every few dozen cycles on four staggered ranks: one rank's refresh falls
// due while another's PREs still wait (a written bank closes only tWR after its data), so the
// scheduler interleaves their refresh work by rank, idle controller or not.
TEST(ColumnRun, RanksFallingDueDuringAnotherRanksRefreshKeepTheSameCommands) {
  for (DramConfig config : {ddr4_3200(), hbm2e_3200()}) {
    config.organization.ranks = 4;
    config.name += " 4 ranks, dense refresh";
    config.controller.refresh_staggered = true;
    config.timing.tRFC = 24;
    config.timing.tREFI = 4 * 40;  // a rank falls due every 40 cycles
    for (const Stream& stream : streams(config)) expect_identical(config, stream);
  }
}

// serve() hands a long request to the controllers in parts; they must end where one run() over
// the whole request ends, with the same commands.
TEST(ColumnRun, ARequestServedInPartsMatchesOneRun) {
  for (const DramConfig& config : {one_bank_group(), hbm2e_3200()}) {
    for (bool column_runs : {true, false}) {
      const Request request{.addr = 4096, .is_write = false, .bytes = 3 << 17, .arrival_cycle = 0};
      DramSystem served(config, column_runs);
      const int64_t end = served.serve(std::span<const Request>(&request, 1));
      DramSystem whole(config, column_runs);
      whole.enqueue(request);
      whole.run();
      EXPECT_EQ(end, whole.completion_cycle(0)) << config.name;
      for (int channel = 0; channel < config.organization.channels; ++channel) {
        for (int pc = 0; pc < config.organization.pseudo_channels; ++pc) {
          EXPECT_EQ(served.commands(channel, pc), whole.commands(channel, pc)) << config.name;
        }
      }
    }
  }
}

// Hand derivation on DDR4-3200 (tCCD_L 8 > tBL 4): after the row is open and its first read
// issued, 15 more reads of that row in the queue go one tCCD_L apart.
TEST(ColumnRun, SameRowReadsFollowTccdL) {
  const DramConfig config = ddr4_3200();
  const ChannelState banks = [&] {
    ChannelState state(config);
    state.issue(CommandKind::kActivate, 0, 0, 0, 5, 100);
    state.issue(CommandKind::kRead, 0, 0, 0, 5, 100 + config.timing.tRCD);
    return state;
  }();
  std::vector<QueuedBurst> queue;
  for (int i = 1; i <= 15; ++i) {
    queue.push_back({.request_id = i, .address = {.row = 5, .column = 8 * i}});
  }
  const int64_t now = 100 + config.timing.tRCD + 1;
  const ColumnRun run = plan_column_run({.banks = banks,
                                         .queue = queue,
                                         .waiting = {},
                                         .queue_depth = 32,
                                         .now = now,
                                         .stop_cycle = kNever});
  EXPECT_EQ(run.count, 15);
  EXPECT_EQ(run.kind, CommandKind::kRead);
  EXPECT_EQ(run.first_cycle, 100 + config.timing.tRCD + config.timing.tCCD_L);
  EXPECT_EQ(run.spacing_cycles, config.timing.tCCD_L);

  // A refresh due at the 5th read's cycle leaves four; a read of another bank group, whose bank
  // is open and ready, could slip in between (tCCD_S < tCCD_L): the run stops at one.
  const ColumnRun before_refresh =
      plan_column_run({.banks = banks,
                       .queue = queue,
                       .waiting = {},
                       .queue_depth = 32,
                       .now = now,
                       .stop_cycle = run.first_cycle + 4 * config.timing.tCCD_L});
  EXPECT_EQ(before_refresh.count, 4);
  ChannelState two_groups = banks;
  two_groups.issue(CommandKind::kActivate, 0, 1, 0, 9, 104);
  std::vector<QueuedBurst> with_other = queue;
  with_other.push_back({.request_id = 99, .address = {.bank_group = 1, .row = 9}});
  const ColumnRun interleaved = plan_column_run({.banks = two_groups,
                                                 .queue = with_other,
                                                 .waiting = {},
                                                 .queue_depth = 32,
                                                 .now = now + 100});
  EXPECT_EQ(interleaved.count, 1);
  // The same read behind 40 of the run's: it enters the 32-burst window once 9 have gone, and
  // could slip in before the 10th.
  std::vector<QueuedBurst> long_queue;
  for (int i = 0; i < 40; ++i) long_queue.push_back({.address = {.row = 5, .column = 0}});
  long_queue.push_back({.request_id = 99, .address = {.bank_group = 1, .row = 9}});
  const std::span<const QueuedBurst> all(long_queue);
  const ColumnRun windowed = plan_column_run({.banks = two_groups,
                                              .queue = all.first(32),
                                              .waiting = all.subspan(32),
                                              .queue_depth = 32,
                                              .now = now + 100});
  EXPECT_EQ(windowed.count, 40 - 32 + 1);
}

TEST(ColumnRun, NoRunUnlessTheOldestBurstHitsAnOpenRow) {
  const DramConfig config = ddr4_3200();
  const ChannelState closed(config);
  const std::vector<QueuedBurst> queue = {{.address = {.row = 5}}, {.address = {.row = 5}}};
  EXPECT_EQ(
      plan_column_run({.banks = closed, .queue = queue, .waiting = {}, .queue_depth = 32}).count,
      0);
}

}  // namespace
}  // namespace polyarch::sim::dram
