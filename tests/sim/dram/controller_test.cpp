#include "sim/memory/dram/controller.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <string>

#include "base/random_draw.h"
#include "sim/memory/dram/checker.h"
#include "sim/memory/dram/dram_system.h"
#include "sim/memory/dram/presets.h"

namespace polyarch::sim::dram {
namespace {

constexpr AddressScheme kSchemes[] = {AddressScheme::kRowBankCol, AddressScheme::kRowColBank,
                                      AddressScheme::kBankInterleaved,
                                      AddressScheme::kPermutedBank};

std::optional<TimingViolation> check_all(const DramSystem& system) {
  const DramOrganization& org = system.config().organization;
  for (int channel = 0; channel < org.channels; ++channel) {
    for (int pc = 0; pc < org.pseudo_channels; ++pc) {
      if (auto found = check_command_stream(system.config(), system.commands(channel, pc))) {
        return found;
      }
    }
  }
  return std::nullopt;
}

// Random reads and writes of random sizes over a few rows per bank (so hits, misses and
// conflicts all occur), arriving over several refresh intervals.
void run_random_mix(DramConfig config, uint64_t seed) {
  std::mt19937_64 random(seed);
  const int64_t hot_span =
      64 * config.row_bytes() * config.pseudo_channel_count() * config.organization.ranks;
  auto address = [&](auto& engine) { return polyarch::random_int(engine, 0, hot_span - 1); };
  auto size = [&](auto& engine) {
    return polyarch::random_int(engine, 1, 4 * config.bytes_per_burst());
  };
  auto arrival = [&](auto& engine) {
    return polyarch::random_int(engine, 0, 3 * config.timing.tREFI);
  };
  auto is_write = [](auto& engine) { return polyarch::random_chance(engine, 0.35); };
  DramSystem system(config);
  std::vector<Request> requests;
  for (int i = 0; i < 600; ++i) {
    requests.push_back({.addr = address(random),
                        .is_write = is_write(random),
                        .bytes = size(random),
                        .arrival_cycle = arrival(random)});
    system.enqueue(requests.back());
  }
  system.run();
  const std::string context = config.name + " " +
                              std::string(page_policy_name(config.controller.page_policy)) + " " +
                              std::string(address_scheme_name(config.controller.address_scheme)) +
                              " seed " + std::to_string(seed);
  const auto violation = check_all(system);
  ASSERT_FALSE(violation.has_value()) << context << ": " << violation->message;
  for (size_t i = 0; i < requests.size(); ++i) {
    const int64_t minimum =
        (requests[i].is_write ? config.timing.tWL : config.timing.tCL) + config.burst_cycles();
    ASSERT_GE(system.completion_cycle(static_cast<int64_t>(i)), requests[i].arrival_cycle + minimum)
        << context << " request " << i;
  }
  const DramStats stats = system.stats();
  EXPECT_EQ(stats.row_hits + stats.row_misses + stats.row_conflicts, stats.bursts()) << context;
  EXPECT_EQ(stats.command_count(CommandKind::kRead), stats.read_bursts) << context;
  EXPECT_EQ(stats.command_count(CommandKind::kWrite), stats.write_bursts) << context;
  EXPECT_GE(stats.refreshes, 2 * config.pseudo_channel_count()) << context;
  if (config.controller.page_policy == PagePolicy::kOpen) {
    EXPECT_GT(stats.row_conflicts, 0) << context;
  }
}

TEST(DramController, CheckerAcceptsEveryRandomStream) {
  uint64_t seed = 1;
  for (std::string_view name : preset_names()) {
    for (PagePolicy policy : {PagePolicy::kOpen, PagePolicy::kClosed}) {
      for (AddressScheme scheme : kSchemes) {
        DramConfig config = preset(name);
        config.controller.page_policy = policy;
        config.controller.address_scheme = scheme;
        run_random_mix(config, seed++);
      }
    }
  }
}

// Two and four ranks under each scheduler and queue structure, staggered, simultaneous and
// per-bank refresh.
TEST(DramController, CheckerAcceptsRandomStreamsOverSeveralRanks) {
  uint64_t seed = 500;
  for (int ranks : {2, 4}) {
    for (DramConfig config : {ddr4_3200(), hbm2e_3200()}) {
      config.organization.ranks = ranks;
      run_random_mix(config, seed++);
      config.controller.refresh_staggered = false;
      config.controller.page_policy = PagePolicy::kClosed;
      run_random_mix(config, seed++);
      config.controller.page_policy = PagePolicy::kOpen;
      config.controller.bank_round_robin = true;
      config.controller.command_queue_depth = 8;
      config.controller.command_queue_per_bank = ranks == 2;
      run_random_mix(config, seed++);
      config.controller.refresh_per_bank = true;
      config.timing.tREFIb = config.timing.tREFI / (ranks * config.banks_per_pseudo_channel());
      config.timing.tRFCb = std::min(config.timing.tRFC / 4, config.timing.tREFIb / 2);
      run_random_mix(config, seed++);
    }
  }
}

// HBM with DRAMsim3's controller structure and HBM2's tRTP_L / tRTP_S (DRAMsim3's
// HBM2_8Gb_x128.ini): the round-robin scheduler's second choice in a cycle may be a RD beside a
// PRE, which these forbid in its bank group and rank; the checker sees every pair both ways.
TEST(DramController, CheckerAcceptsHbmCommandPairsUnderTrtpLAndS) {
  DramConfig config = hbm2e_3200();
  config.timing.tRTP_L = 10;
  config.timing.tRTP_S = 7;
  config.controller.bank_round_robin = true;
  config.controller.command_queue_depth = 8;
  run_random_mix(config, 900);
  config.controller.bank_round_robin = false;
  config.controller.command_queue_depth = 0;
  run_random_mix(config, 901);
  // The pairs happen: some cycle carries a row and a column command. Bursts 7919 apart (a
  // prime) spread over the banks and rows of every pseudo-channel.
  DramSystem system(config);
  for (int i = 0; i < 2000; ++i) {
    system.enqueue({.addr = int64_t{i} * 7919 * config.bytes_per_burst(), .arrival_cycle = 0});
  }
  system.run();
  int64_t pairs = 0;
  for (int channel = 0; channel < config.organization.channels; ++channel) {
    for (int pc = 0; pc < config.organization.pseudo_channels; ++pc) {
      const std::vector<Command>& commands = system.commands(channel, pc);
      for (size_t i = 1; i < commands.size(); ++i) {
        pairs += commands[i].cycle == commands[i - 1].cycle ? 1 : 0;
      }
    }
  }
  EXPECT_GT(pairs, 0);
  EXPECT_FALSE(check_all(system).has_value());
}

TEST(DramController, CheckerAcceptsShallowAndDeepQueues) {
  for (int depth : {1, 4, 128}) {
    DramConfig config = ddr4_3200();
    config.controller.queue_depth = depth;
    run_random_mix(config, 1000 + depth);
  }
}

TEST(DramController, LoneReadTakesActivateReadAndBurst) {
  const DramConfig config = ddr4_3200();
  DramSystem system(config);
  const int64_t id = system.enqueue({.addr = 0, .bytes = 64, .arrival_cycle = 100});
  system.run();
  const DramTiming& t = config.timing;
  EXPECT_EQ(system.completion_cycle(id), 100 + t.tRCD + t.tCL + config.burst_cycles());
  const std::vector<Command>& commands = system.commands(0, 0);
  ASSERT_EQ(commands.size(), 2u);
  EXPECT_EQ(commands[0].kind, CommandKind::kActivate);
  EXPECT_EQ(commands[0].cycle, 100);
  EXPECT_EQ(commands[1].kind, CommandKind::kRead);
  EXPECT_EQ(commands[1].cycle, 100 + t.tRCD);
  EXPECT_EQ(system.stats().row_misses, 1);
}

TEST(DramController, RequestSpanningBurstsCompletesWithItsLastBurst) {
  const DramConfig config = ddr4_3200();
  DramSystem system(config);
  const int64_t id = system.enqueue({.addr = 32, .bytes = 256, .arrival_cycle = 0});
  system.run();
  EXPECT_EQ(system.stats().read_bursts, 5);  // bytes 32..287 touch five 64-byte bursts
  EXPECT_EQ(system.completion_cycle(id), system.stats().last_completion_cycle);
}

TEST(DramController, RefreshesEveryTrefiWhileTimePasses) {
  const DramConfig config = ddr4_3200();
  DramSystem system(config);
  system.enqueue({.addr = 0, .arrival_cycle = 0});
  system.enqueue({.addr = 0, .arrival_cycle = 10 * config.timing.tREFI + config.timing.tREFI / 2});
  system.run();
  EXPECT_EQ(system.stats().refreshes, 10);
  EXPECT_FALSE(check_all(system).has_value());
}

TEST(DramController, RowHitsAreServedBeforeOlderConflicts) {
  DramConfig config = ddr4_3200();
  config.controller.address_scheme = AddressScheme::kRowBankCol;
  DramSystem system(config);
  const AddressMapping& mapping = system.mapping();
  const int64_t opener = system.enqueue({.addr = mapping.encode({.row = 1}), .arrival_cycle = 0});
  const int64_t conflict =
      system.enqueue({.addr = mapping.encode({.row = 2}), .arrival_cycle = 30});
  const int64_t hit =
      system.enqueue({.addr = mapping.encode({.row = 1, .column = 8}), .arrival_cycle = 31});
  system.run();
  EXPECT_LT(system.completion_cycle(opener), system.completion_cycle(hit));
  EXPECT_LT(system.completion_cycle(hit), system.completion_cycle(conflict));
  const DramStats stats = system.stats();
  EXPECT_EQ(stats.row_hits, 1);
  EXPECT_EQ(stats.row_misses, 1);
  EXPECT_EQ(stats.row_conflicts, 1);
}

// HBM2E at cycle 100: a read hitting the row an earlier read left open (bank group 0) and a read
// to a closed bank of bank group 1. FR-FCFS issues the hit first; with one command bus the ACT
// follows a cycle later, with HBM's row and column buses in the same cycle. The second read
// completes at ACT + tRCD + CL + tBL: 100 + 1 + 23 + 23 + 2 = 149 against 148.
TEST(DramController, HbmIssuesARowCommandBesideAColumnCommand) {
  for (const bool dual : {false, true}) {
    DramConfig config = hbm2e_3200();
    ASSERT_TRUE(config.organization.dual_command_issue);
    config.organization.dual_command_issue = dual;
    config.controller.address_scheme = AddressScheme::kRowBankCol;
    DramSystem system(config);
    const AddressMapping& mapping = system.mapping();
    system.enqueue({.addr = mapping.encode({.row = 1}), .bytes = 32, .arrival_cycle = 0});
    const int64_t hit = system.enqueue(
        {.addr = mapping.encode({.row = 1, .column = 4}), .bytes = 32, .arrival_cycle = 100});
    const int64_t miss = system.enqueue(
        {.addr = mapping.encode({.bank_group = 1, .row = 1}), .bytes = 32, .arrival_cycle = 100});
    system.run();
    const DramTiming& t = config.timing;
    EXPECT_EQ(system.completion_cycle(hit), 100 + t.tCL + config.burst_cycles());
    EXPECT_EQ(system.completion_cycle(miss), (dual ? 148 : 149)) << "dual " << dual;
    const std::vector<Command>& commands = system.commands(0, 0);
    ASSERT_EQ(commands.size(), 5u);
    EXPECT_EQ(commands[2].kind, CommandKind::kRead);
    EXPECT_EQ(commands[2].cycle, 100);
    EXPECT_EQ(commands[3].kind, CommandKind::kActivate);
    EXPECT_EQ(commands[3].cycle, dual ? 100 : 101);
    EXPECT_FALSE(check_all(system).has_value()) << "dual " << dual;
  }
}

TEST(DramController, ClosedPagePrechargesIdleRows) {
  DramConfig config = ddr4_3200();
  config.controller.page_policy = PagePolicy::kClosed;
  DramSystem system(config);
  system.enqueue({.addr = 0, .arrival_cycle = 0});
  const int64_t same_row = system.mapping().encode({.column = 8});
  system.enqueue({.addr = same_row, .arrival_cycle = 1000});  // long after
  system.run();
  const std::vector<Command>& commands = system.commands(0, 0);
  ASSERT_EQ(commands.size(), 5u);
  EXPECT_EQ(commands[2].kind, CommandKind::kPrecharge);
  EXPECT_EQ(commands[2].cycle, config.timing.tRAS);  // tRAS outlasts tRCD + tRTP here
  EXPECT_EQ(commands[3].kind, CommandKind::kActivate);
  EXPECT_EQ(system.stats().row_misses, 2);
  config.controller.page_policy = PagePolicy::kOpen;
  DramSystem open(config);
  open.enqueue({.addr = 0, .arrival_cycle = 0});
  open.enqueue({.addr = same_row, .arrival_cycle = 1000});
  open.run();
  EXPECT_EQ(open.commands(0, 0).size(), 3u);
  EXPECT_EQ(open.stats().row_hits, 1);
}

// The checker must catch a controller that ignores a constraint: simulate with one parameter
// shortened and check the stream against the real parameters.
TEST(DramController, CheckerCatchesAControllerThatIgnoresAConstraint) {
  struct Case {
    const char* rule;
    std::function<void(DramTiming&)> shorten;
  };
  const Case cases[] = {
      {"tRCD", [](DramTiming& t) { t.tRCD = 8; }},
      {"tRP", [](DramTiming& t) { t.tRP = 8; }},
      {"tRAS", [](DramTiming& t) { t.tRAS = t.tRCD; }},
      {"tCCD_L", [](DramTiming& t) { t.tCCD_L = t.tCCD_S; }},
      {"tRRD_L", [](DramTiming& t) { t.tRRD_L = t.tRRD_S; }},
      {"tRRD_S", [](DramTiming& t) { t.tRRD_S = t.tRRD_L = 1, t.tFAW = 4; }},
      {"tFAW", [](DramTiming& t) { t.tFAW = 8; }},
      {"tWTR_L", [](DramTiming& t) { t.tWTR_L = t.tWTR_S; }},
      {"tWTR_S", [](DramTiming& t) { t.tWTR_S = t.tWTR_L = 0; }},
      {"tRTW", [](DramTiming& t) { t.tRTW_turnaround = 0; }},
      {"tRTP", [](DramTiming& t) { t.tRTP = 2; }},
      {"tWR", [](DramTiming& t) { t.tWR = 2; }},
      {"tRFC", [](DramTiming& t) { t.tRFC = 100; }},
  };
  const uint64_t seed = 5;
  for (const Case& c : cases) {
    DramConfig real = ddr4_3200();
    real.controller.address_scheme = AddressScheme::kRowBankCol;
    DramConfig broken = real;
    c.shorten(broken.timing);
    std::mt19937_64 random(seed);
    auto address = [&](auto& engine) {
      return polyarch::random_int(engine, 0, 4 * real.row_bytes() * 16 - 1);
    };
    auto is_write = [](auto& engine) { return polyarch::random_chance(engine, 0.5); };
    DramSystem system(broken);
    for (int i = 0; i < 4000; ++i) {
      system.enqueue({.addr = address(random), .is_write = is_write(random), .arrival_cycle = i});
    }
    system.run();
    const auto found = check_command_stream(real, system.commands(0, 0));
    ASSERT_TRUE(found.has_value()) << c.rule << " seed " << seed;
    EXPECT_EQ(found->rule, c.rule) << found->message;
  }
}

TEST(DramController, RunCanContinueAfterMoreRequests) {
  const DramConfig config = hbm2e_3200();
  DramSystem system(config);
  system.enqueue({.addr = 0, .bytes = 1024, .arrival_cycle = 0});
  system.run();
  const int64_t second = system.enqueue({.addr = 4096, .bytes = 1024, .arrival_cycle = 10});
  system.run();
  EXPECT_GT(system.completion_cycle(second), 10);
  EXPECT_FALSE(check_all(system).has_value());
}

}  // namespace
}  // namespace polyarch::sim::dram
