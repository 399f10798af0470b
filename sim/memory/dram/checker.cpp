#include "sim/memory/dram/checker.h"

#include <algorithm>
#include <deque>
#include <map>
#include <utility>
#include <vector>

namespace polyarch::sim::dram {
namespace {

constexpr int64_t kNone = -1;  // "no such command yet"

struct BankHistory {
  bool open = false;
  int64_t row = 0;
  int64_t last_bank_refresh = kNone;
  int64_t last_activate = kNone;
  int64_t last_precharge = kNone;
  int64_t last_read = kNone;
  int64_t last_write = kNone;
};

struct GroupHistory {
  int64_t last_activate = kNone;
  int64_t last_precharge = kNone;
  int64_t last_read = kNone;
  int64_t last_write = kNone;
};

// What one rank remembers: its banks, bank groups and rank-wide limits.
struct RankHistory {
  std::vector<BankHistory> banks;
  std::vector<GroupHistory> groups;
  int64_t last_activate = kNone;
  int64_t last_read = kNone;
  int64_t last_write = kNone;
  int64_t last_refresh = kNone;
  int64_t last_precharge = kNone;
  std::deque<int64_t> recent_activates;   // the last four ACT cycles
  std::deque<int64_t> last_32_activates;  // the last 32, where t32AW applies
};

// A pseudo-channel: its ranks, and the command bus and data bus they share.
struct PseudoChannelHistory {
  std::vector<RankHistory> ranks;
  int64_t last_command = kNone;
  // HBM's two command buses: the last ACT, PRE or REF, and the last RD or WR.
  int64_t last_row_command = kNone;
  int64_t last_column_command = kNone;
  int64_t last_read = kNone;  // any rank's: the bus turns around after it
  int64_t data_bus_free = 0;  // first cycle after the last burst's data
  int last_burst_rank = -1;   // the rank whose burst the data bus carried last
  bool last_burst_read = false;
};

class Replay {
 public:
  explicit Replay(const DramConfig& config) : config_(config), t_(config.timing) {
    burst_cycles_ = config.burst_cycles();
  }

  std::optional<TimingViolation> step(const Command& command);

 private:
  PseudoChannelHistory& history_for(const Command& command);
  bool in_range(const Command& command) const;
  // Fails when `command` comes less than `needed` cycles after `earlier` (kNone: no constraint).
  bool too_soon(int64_t earlier, int64_t needed, const Command& command) const {
    return earlier != kNone && command.cycle < earlier + needed;
  }
  TimingViolation violation(std::string rule, const Command& command, int64_t earlier,
                            std::string earlier_what, int64_t needed) const;
  TimingViolation state_violation(const Command& command, std::string why) const;

  std::optional<TimingViolation> check_activate(const Command& c, RankHistory& h);
  std::optional<TimingViolation> check_precharge(const Command& c, RankHistory& h);
  std::optional<TimingViolation> check_column(const Command& c, RankHistory& h,
                                              PseudoChannelHistory& bus);
  std::optional<TimingViolation> check_refresh(const Command& c, RankHistory& h);
  std::optional<TimingViolation> check_bank_refresh(const Command& c, RankHistory& h);
  // An ACT or a REFpb: its bank must be done precharging and refreshing (its own REFpb, its
  // rank's REF).
  std::optional<TimingViolation> check_bank_ready(const Command& c, const BankHistory& bank,
                                                  const RankHistory& h) const;
  // Per-bank refresh: whether the bank `c` addresses went too long without a refresh.
  std::optional<TimingViolation> check_bank_refresh_interval(const Command& c,
                                                             const RankHistory& h) const;

  const DramConfig& config_;
  const DramTiming& t_;
  int64_t burst_cycles_ = 0;
  std::map<std::pair<int, int>, PseudoChannelHistory> histories_;
};

PseudoChannelHistory& Replay::history_for(const Command& command) {
  auto [it, inserted] =
      histories_.try_emplace({command.channel, command.pseudo_channel}, PseudoChannelHistory{});
  if (inserted) {
    it->second.ranks.resize(static_cast<size_t>(config_.organization.ranks));
    for (RankHistory& rank : it->second.ranks) {
      rank.banks.resize(static_cast<size_t>(config_.banks_per_pseudo_channel()));
      rank.groups.resize(static_cast<size_t>(config_.organization.bank_groups));
    }
  }
  return it->second;
}

bool Replay::in_range(const Command& c) const {
  const DramOrganization& org = config_.organization;
  return c.channel >= 0 && c.channel < org.channels && c.pseudo_channel >= 0 &&
         c.pseudo_channel < org.pseudo_channels && c.rank >= 0 && c.rank < org.ranks &&
         c.bank_group >= 0 && c.bank_group < org.bank_groups && c.bank >= 0 &&
         c.bank < org.banks_per_group && c.row >= 0 && c.row < org.rows && c.column >= 0 &&
         c.column < org.columns;
}

TimingViolation Replay::violation(std::string rule, const Command& command, int64_t earlier,
                                  std::string earlier_what, int64_t needed) const {
  std::string message = rule + " violated: " + describe(command) + " comes " +
                        std::to_string(command.cycle - earlier) + " cycles after " + earlier_what +
                        " at cycle " + std::to_string(earlier) + "; needs " +
                        std::to_string(needed);
  return {std::move(rule), command, std::move(message)};
}

TimingViolation Replay::state_violation(const Command& command, std::string why) const {
  return {"bank state", command, "bank state violated: " + describe(command) + ": " + why};
}

std::optional<TimingViolation> Replay::step(const Command& c) {
  if (!in_range(c)) return state_violation(c, "address outside the organisation");
  PseudoChannelHistory& channel = history_for(c);
  RankHistory& h = channel.ranks[static_cast<size_t>(c.rank)];
  const bool column = c.kind == CommandKind::kRead || c.kind == CommandKind::kWrite;
  if (config_.organization.dual_command_issue) {
    // HBM (JESD235): a row and a column command bus, each one command per cycle.
    const int64_t same_bus = column ? channel.last_column_command : channel.last_row_command;
    if ((channel.last_command != kNone && c.cycle < channel.last_command) ||
        (same_bus != kNone && c.cycle <= same_bus)) {
      return TimingViolation{"command bus", c,
                             "command bus violated: " + describe(c) + " comes at or before the " +
                                 std::string(column ? "column" : "row") +
                                 " command bus's previous command at cycle " +
                                 std::to_string(std::max(same_bus, channel.last_command)) +
                                 " (one row and one column command per cycle, in issue order)"};
    }
  } else if (channel.last_command != kNone && c.cycle <= channel.last_command) {
    return TimingViolation{
        "command bus", c,
        "command bus violated: " + describe(c) + " is not after the previous command at cycle " +
            std::to_string(channel.last_command) + " (one command per cycle, in issue order)"};
  }
  if (config_.controller.refresh && config_.controller.refresh_per_bank) {
    if (auto late = check_bank_refresh_interval(c, h)) return late;
  } else if (config_.controller.refresh) {
    // JESD79-4 4.26: at most 8 REFs may be postponed, so a rank's REFs are at most 9 x tREFI
    // apart.
    const int64_t limit = (t_.max_postponed_refreshes + 1) * t_.tREFI;
    const int64_t since = h.last_refresh == kNone ? 0 : h.last_refresh;
    if (c.cycle - since > limit) {
      return TimingViolation{"tREFI", c,
                             "tREFI violated: " + describe(c) + " comes " +
                                 std::to_string(c.cycle - since) +
                                 " cycles after the rank's last refresh; at most " +
                                 std::to_string(limit) + " allowed"};
    }
  }
  std::optional<TimingViolation> found;
  switch (c.kind) {
    case CommandKind::kActivate:
      found = check_activate(c, h);
      break;
    case CommandKind::kPrecharge:
      found = check_precharge(c, h);
      break;
    case CommandKind::kRead:
    case CommandKind::kWrite:
      found = check_column(c, h, channel);
      break;
    case CommandKind::kRefresh:
      found = check_refresh(c, h);
      break;
    case CommandKind::kRefreshBank:
      found = check_bank_refresh(c, h);
      break;
  }
  channel.last_command = c.cycle;
  (column ? channel.last_column_command : channel.last_row_command) = c.cycle;
  return found;
}

std::optional<TimingViolation> Replay::check_activate(const Command& c, RankHistory& h) {
  BankHistory& bank =
      h.banks[static_cast<size_t>(c.bank_group * config_.organization.banks_per_group + c.bank)];
  GroupHistory& group = h.groups[static_cast<size_t>(c.bank_group)];
  if (bank.open)
    return state_violation(c, "the bank already has row " + std::to_string(bank.row) + " open");
  if (auto busy = check_bank_ready(c, bank, h)) return busy;
  if (too_soon(group.last_activate, t_.tRRD_L, c)) {
    return violation("tRRD_L", c, group.last_activate, "ACT in the same bank group", t_.tRRD_L);
  }
  if (too_soon(h.last_activate, t_.tRRD_S, c)) {
    return violation("tRRD_S", c, h.last_activate, "ACT in the rank", t_.tRRD_S);
  }
  if (h.recent_activates.size() == 4 && too_soon(h.recent_activates.front(), t_.tFAW, c)) {
    return violation("tFAW", c, h.recent_activates.front(), "the fourth-last ACT", t_.tFAW);
  }
  if (t_.t32AW > 0 && h.last_32_activates.size() == 32 &&
      too_soon(h.last_32_activates.front(), t_.t32AW, c)) {
    return violation("t32AW", c, h.last_32_activates.front(), "the 32nd-last ACT", t_.t32AW);
  }
  bank.open = true;
  bank.row = c.row;
  bank.last_activate = group.last_activate = h.last_activate = c.cycle;
  h.recent_activates.push_back(c.cycle);
  if (h.recent_activates.size() > 4) h.recent_activates.pop_front();
  h.last_32_activates.push_back(c.cycle);
  if (h.last_32_activates.size() > 32) h.last_32_activates.pop_front();
  return std::nullopt;
}

std::optional<TimingViolation> Replay::check_precharge(const Command& c, RankHistory& h) {
  BankHistory& bank =
      h.banks[static_cast<size_t>(c.bank_group * config_.organization.banks_per_group + c.bank)];
  const GroupHistory& group = h.groups[static_cast<size_t>(c.bank_group)];
  if (!bank.open) return state_violation(c, "the bank has no open row");
  if (t_.tPPD > 0 && too_soon(h.last_precharge, t_.tPPD, c)) {
    return violation("tPPD", c, h.last_precharge, "PRE in the rank", t_.tPPD);
  }
  if (t_.tRTP_L > 0 && too_soon(group.last_read, t_.tRTP_L, c)) {
    return violation("tRTP_L", c, group.last_read, "RD in the same bank group", t_.tRTP_L);
  }
  if (t_.tRTP_S > 0 && too_soon(h.last_read, t_.tRTP_S, c)) {
    return violation("tRTP_S", c, h.last_read, "RD in the rank", t_.tRTP_S);
  }
  if (too_soon(bank.last_activate, t_.tRAS, c)) {
    return violation("tRAS", c, bank.last_activate, "ACT to the same bank", t_.tRAS);
  }
  if (too_soon(bank.last_read, t_.tRTP, c)) {
    return violation("tRTP", c, bank.last_read, "RD to the same bank", t_.tRTP);
  }
  // Write recovery counts from the end of the write data: WR + WL + tBL + tWR.
  const int64_t write_to_precharge = t_.tWL + burst_cycles_ + t_.tWR;
  if (too_soon(bank.last_write, write_to_precharge, c)) {
    return violation("tWR", c, bank.last_write, "WR to the same bank", write_to_precharge);
  }
  bank.open = false;
  bank.last_precharge = h.last_precharge = c.cycle;
  h.groups[static_cast<size_t>(c.bank_group)].last_precharge = c.cycle;
  return std::nullopt;
}

std::optional<TimingViolation> Replay::check_column(const Command& c, RankHistory& h,
                                                    PseudoChannelHistory& bus) {
  BankHistory& bank =
      h.banks[static_cast<size_t>(c.bank_group * config_.organization.banks_per_group + c.bank)];
  GroupHistory& group = h.groups[static_cast<size_t>(c.bank_group)];
  const bool is_read = c.kind == CommandKind::kRead;
  if (!bank.open) return state_violation(c, "the bank has no open row");
  if (bank.row != c.row) {
    return state_violation(c, "the open row is " + std::to_string(bank.row));
  }
  if (c.column % config_.organization.burst_length != 0) {
    return state_violation(c, "the column is not burst-aligned");
  }
  const int64_t activate_to_column = is_read ? t_.tRCD : t_.activate_to_write();
  if (too_soon(bank.last_activate, activate_to_column, c)) {
    return violation(is_read || t_.tRCDWR < 0 ? "tRCD" : "tRCDWR", c, bank.last_activate,
                     "ACT to the same bank", activate_to_column);
  }
  const int64_t group_same = is_read ? group.last_read : group.last_write;
  const int64_t channel_same = is_read ? h.last_read : h.last_write;
  const char* same_name = is_read ? "RD" : "WR";
  if (too_soon(group_same, t_.tCCD_L, c)) {
    return violation("tCCD_L", c, group_same, std::string(same_name) + " in the same bank group",
                     t_.tCCD_L);
  }
  if (too_soon(channel_same, t_.tCCD_S, c)) {
    return violation("tCCD_S", c, channel_same, std::string(same_name) + " in the rank", t_.tCCD_S);
  }
  if (is_read) {
    // A PRE in the same cycle (dual command issue) is not tRTP_L / tRTP_S after the read.
    if (t_.tRTP_L > 0 && group.last_precharge == c.cycle) {
      return violation("tRTP_L", c, c.cycle, "PRE in the same bank group, same cycle", t_.tRTP_L);
    }
    if (t_.tRTP_S > 0 && h.last_precharge == c.cycle) {
      return violation("tRTP_S", c, c.cycle, "PRE in the rank, same cycle", t_.tRTP_S);
    }
    // Read after write: the write data must have ended tWTR before the RD.
    const int64_t needed_l = t_.tWL + burst_cycles_ + t_.tWTR_L;
    const int64_t needed_s = t_.tWL + burst_cycles_ + t_.tWTR_S;
    if (too_soon(group.last_write, needed_l, c)) {
      return violation("tWTR_L", c, group.last_write, "WR in the same bank group", needed_l);
    }
    if (too_soon(h.last_write, needed_s, c)) {
      return violation("tWTR_S", c, h.last_write, "WR in the rank", needed_s);
    }
  } else if (bus.last_read != kNone) {
    // Write after read (any rank's): write data starts after the read data plus the bus
    // turnaround.
    const int64_t read_data_end = bus.last_read + t_.tCL + burst_cycles_;
    if (c.cycle + t_.tWL < read_data_end + t_.tRTW_turnaround) {
      return violation("tRTW", c, bus.last_read, "RD in the pseudo-channel",
                       t_.tCL + burst_cycles_ + t_.tRTW_turnaround - t_.tWL);
    }
  }
  const int64_t data_start = c.cycle + (is_read ? t_.tCL : t_.tWL);
  if (data_start < bus.data_bus_free) {
    return TimingViolation{"data bus", c,
                           "data bus violated: " + describe(c) + " puts data on the bus at cycle " +
                               std::to_string(data_start) + " but it is busy until cycle " +
                               std::to_string(bus.data_bus_free)};
  }
  // Rank to rank: where the bus changes driver between two ranks' bursts (the new one a read,
  // or a write after a read), it idles tRTRS between them.
  if (bus.last_burst_rank >= 0 && bus.last_burst_rank != c.rank &&
      (is_read || bus.last_burst_read) && data_start < bus.data_bus_free + t_.tRTRS) {
    return TimingViolation{"tRTRS", c,
                           "tRTRS violated: " + describe(c) + " puts data on the bus at cycle " +
                               std::to_string(data_start) + ", " +
                               std::to_string(data_start - bus.data_bus_free) +
                               " cycles after rank " + std::to_string(bus.last_burst_rank) +
                               "'s burst; needs " + std::to_string(t_.tRTRS)};
  }
  bus.data_bus_free = data_start + burst_cycles_;
  bus.last_burst_rank = c.rank;
  bus.last_burst_read = is_read;
  if (is_read) {
    bank.last_read = group.last_read = h.last_read = bus.last_read = c.cycle;
  } else {
    bank.last_write = group.last_write = h.last_write = c.cycle;
  }
  return std::nullopt;
}

std::optional<TimingViolation> Replay::check_refresh(const Command& c, RankHistory& h) {
  int64_t last_precharge = kNone;
  for (const BankHistory& bank : h.banks) {
    if (bank.open)
      return state_violation(c, "a bank still has row " + std::to_string(bank.row) + " open");
    last_precharge = std::max(last_precharge, bank.last_precharge);
  }
  if (too_soon(last_precharge, t_.tRP, c)) {
    return violation("tRP", c, last_precharge, "PRE in the rank", t_.tRP);
  }
  if (too_soon(h.last_refresh, t_.tRFC, c)) {
    return violation("tRFC", c, h.last_refresh, "REF", t_.tRFC);
  }
  h.last_refresh = c.cycle;
  return std::nullopt;
}

std::optional<TimingViolation> Replay::check_bank_ready(const Command& c, const BankHistory& bank,
                                                        const RankHistory& h) const {
  if (too_soon(bank.last_precharge, t_.tRP, c)) {
    return violation("tRP", c, bank.last_precharge, "PRE to the same bank", t_.tRP);
  }
  if (too_soon(h.last_refresh, t_.tRFC, c)) {
    return violation("tRFC", c, h.last_refresh, "REF", t_.tRFC);
  }
  if (too_soon(bank.last_bank_refresh, t_.tRFCb, c)) {
    return violation("tRFCb", c, bank.last_bank_refresh, "REFpb of the same bank", t_.tRFCb);
  }
  return std::nullopt;
}

std::optional<TimingViolation> Replay::check_bank_refresh(const Command& c, RankHistory& h) {
  BankHistory& bank =
      h.banks[static_cast<size_t>(c.bank_group * config_.organization.banks_per_group + c.bank)];
  if (bank.open)
    return state_violation(c, "the bank still has row " + std::to_string(bank.row) + " open");
  if (auto busy = check_bank_ready(c, bank, h)) return busy;
  bank.last_bank_refresh = c.cycle;
  return std::nullopt;
}

std::optional<TimingViolation> Replay::check_bank_refresh_interval(const Command& c,
                                                                   const RankHistory& h) const {
  if (c.kind == CommandKind::kRefresh) return std::nullopt;
  // Every bank of every rank takes its turn, one every tREFIb: a bank's refreshes are that
  // many tREFIb apart, and as many may be postponed as under all-bank refresh.
  const DramOrganization& org = config_.organization;
  const int64_t period = int64_t{org.ranks} * config_.banks_per_pseudo_channel() * t_.tREFIb;
  const int64_t limit = (t_.max_postponed_refreshes + 1) * period;
  const BankHistory& bank =
      h.banks[static_cast<size_t>(c.bank_group * org.banks_per_group + c.bank)];
  const int64_t since =
      std::max<int64_t>(std::max<int64_t>(bank.last_bank_refresh, 0), h.last_refresh);
  if (c.cycle - since <= limit) return std::nullopt;
  return TimingViolation{
      "tREFIb", c,
      "tREFIb violated: " + describe(c) + " comes " + std::to_string(c.cycle - since) +
          " cycles after its bank's last refresh; at most " + std::to_string(limit) + " allowed"};
}

}  // namespace

std::optional<TimingViolation> check_command_stream(const DramConfig& config,
                                                    std::span<const Command> commands) {
  config.validate();
  Replay replay(config);
  for (const Command& command : commands) {
    if (auto found = replay.step(command)) return found;
  }
  return std::nullopt;
}

}  // namespace polyarch::sim::dram
