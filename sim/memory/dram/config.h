#pragma once
// The description of a DRAM system for the cycle-level timing model: how it is organised, its
// timing parameters in cycles of the DRAM command clock, and how its controllers behave.
// Parameter names follow the JEDEC standards (JESD79-4 DDR4, JESD209-5 LPDDR5, JESD235 HBM2,
// JESD238 HBM3, JESD250 GDDR6) so they can be checked against a datasheet line by line.
#include <cstdint>
#include <string>
#include <string_view>

#include "base/error.h"

namespace polyarch::sim::dram {

// One bank of a pseudo-channel.
struct BankCoordinates {
  int rank = 0;
  int bank_group = 0;
  int bank = 0;
};

inline constexpr int kMaxBanksPerRank = 64;

struct DramOrganization {
  int channels = 1;
  int pseudo_channels = 1;  // per channel; each has its own banks, data bus and controller
  // Ranks per (pseudo-)channel: each has its own banks and its own tRRD, tFAW and refresh;
  // they share the controller, the command bus and the data bus.
  int ranks = 1;
  int bank_groups = 4;  // per pseudo-channel
  int banks_per_group = 4;
  int64_t rows = 65536;  // per bank
  // Column addresses per row, each one device-width wide; one burst covers `burst_length`
  // consecutive columns, so a row holds columns / burst_length bursts.
  int columns = 1024;
  int burst_length = 8;           // transfers per burst (BL)
  int channel_width_bits = 64;    // data bus of one channel, split evenly among pseudo-channels
  int64_t data_rate_mtps = 3200;  // mega-transfers per second per data pin
  int64_t clock_mhz = 1600;       // command clock (CK); all timings count its cycles
  // Separate row and column command buses (HBM2, JESD235; HBM3, JESD238): one row command
  // (ACT, PRE, REF) and one column command (RD, WR) may issue in the same cycle. Follows from
  // the standard (HBM only); every other standard has one command per cycle.
  bool dual_command_issue = false;

  // The banks of a pseudo-channel over all its ranks, numbered bank by bank within a bank
  // group, bank group by bank group within a rank: what the controller's per-bank tables and
  // per-bank refresh index by.
  int flat_bank(int rank, int bank_group, int bank) const {
    return (rank * bank_groups + bank_group) * banks_per_group + bank;
  }
  BankCoordinates bank_coordinates(int flat) const {
    const int per_rank = bank_groups * banks_per_group;
    return {.rank = flat / per_rank,
            .bank_group = flat % per_rank / banks_per_group,
            .bank = flat % banks_per_group};
  }
};

// Minimum distances between commands, in command-clock cycles. "_S" applies between different
// bank groups, "_L" within one bank group (JESD79-4 section 4.32).
struct DramTiming {
  int64_t tRCD = 22;      // ACT to RD/WR, same bank
  int64_t tRP = 22;       // PRE to ACT, same bank
  int64_t tRAS = 52;      // ACT to PRE, same bank
  int64_t tCL = 22;       // RD to first data (read latency)
  int64_t tWL = 16;       // WR to first data (CAS write latency, CWL)
  int64_t tCCD_S = 4;     // column command to column command, different bank group
  int64_t tCCD_L = 8;     // column command to column command, same bank group
  int64_t tRRD_S = 4;     // ACT to ACT, different bank group
  int64_t tRRD_L = 8;     // ACT to ACT, same bank group
  int64_t tFAW = 34;      // at most four ACTs in any window of tFAW cycles
  int64_t tWR = 24;       // end of write data to PRE, same bank (write recovery)
  int64_t tWTR_S = 4;     // end of write data to RD, different bank group
  int64_t tWTR_L = 12;    // end of write data to RD, same bank group
  int64_t tRTP = 12;      // RD to PRE, same bank
  int64_t tREFI = 12480;  // average interval between all-bank refreshes
  int64_t tRFC = 560;     // all-bank refresh to the next ACT or REF
  // Per-bank refresh (LPDDR4 tRFCpb/tREFIpb, HBM tRFCSB/tREFISB; DRAMsim3's tRFCb/tREFIb): a
  // REFpb keeps its bank from ACT for tRFCb; one bank falls due every tREFIb. 0: none.
  int64_t tRFCb = 0;
  int64_t tREFIb = 0;
  // Idle cycles the data bus needs between the last read data and the first write data
  // (read-to-write turnaround: JESD79-4 tRTW = RL + BL/2 - WL + 2 tCK with preamble included).
  int64_t tRTW_turnaround = 2;
  // Idle data-bus cycles between bursts of two different ranks where the bus changes driver
  // (a read after anything from another rank, a write after another rank's read): DRAMsim3's
  // and Ramulator's tRTRS. Two writes need none: the controller drives both.
  int64_t tRTRS = 2;
  // JESD79-4 lets a controller postpone at most 8 refreshes, so two REFs are never more than
  // 9 x tREFI apart.
  int64_t max_postponed_refreshes = 8;
  // ACT to WR where the standard gives it apart from ACT to RD (GDDR6 and HBM's tRCDWR);
  // -1: tRCD applies to both.
  int64_t tRCDWR = -1;
  // At most 32 ACTs in any window of t32AW cycles (JESD250 GDDR6); 0: no such limit.
  int64_t t32AW = 0;
  // PRE to PRE, any two banks of a rank (LPDDR4 JESD209-4, GDDR5/6); 0: no such limit.
  int64_t tPPD = 0;
  // RD to PRE of any bank of the same bank group (_L) or of another bank group (_S), read as
  // the _L/_S pairs tCCD, tRRD and tWTR are (HBM2 JESD235, GDDR5); 0: only tRTP applies, to
  // the read bank.
  int64_t tRTP_L = 0;
  int64_t tRTP_S = 0;

  int64_t activate_to_write() const { return tRCDWR < 0 ? tRCD : tRCDWR; }
};

enum class PagePolicy {
  kOpen,    // a row stays open until a request to another row of its bank needs the bank
  kClosed,  // a row is precharged as soon as no queued request hits it
};

// How a physical byte address is split into DRAM coordinates; named from the most to the least
// significant field, in the manner of Ramulator's "RoBaRaCoCh".
enum class AddressScheme {
  // The rank field sits right above the bank field, so ranks interleave like more banks; with
  // one rank it is zero bits wide.
  kRowBankCol,       // row | rank | bank | bank group | column | pseudo-channel | channel
  kRowColBank,       // row | column | rank | bank | bank group | pseudo-channel | channel
  kBankInterleaved,  // row | rank | bank | column | bank group | pseudo-channel | channel
  kPermutedBank,     // kRowBankCol with bank and bank group XORed with the low row bits
  kFieldOrder,       // the order ControllerOptions::field_order spells, DRAMsim3's way
};
// Where a DRAM configuration error points: the key path, e.g. "dram.tRCD".
SourceLocation config_key(std::string key_path);

std::string_view page_policy_name(PagePolicy policy);        // "open", "closed"
std::string_view address_scheme_name(AddressScheme scheme);  // "row_bank_col", ...
// Parse the names above; unknown names are a polyarch::Error naming the accepted ones.
PagePolicy parse_page_policy(std::string_view name);
AddressScheme parse_address_scheme(std::string_view name);
// DRAMsim3's address-mapping strings: two-letter fields, most significant first, each of
// ro ch ra bg ba co exactly once, pc (pseudo-channel) at most once, e.g. "rochrababgco".
// True when `text` is such a string; the fields' validity is checked by validate_field_order.
bool looks_like_field_order(std::string_view text);
// Throws polyarch::Error (bad input) naming the field that is unknown, repeated or missing.
void validate_field_order(std::string_view text);

struct ControllerOptions {
  PagePolicy page_policy = PagePolicy::kOpen;
  AddressScheme address_scheme = AddressScheme::kBankInterleaved;
  std::string field_order;  // kFieldOrder only: "rochrababgco", ...
  int queue_depth = 32;     // bursts a pseudo-channel controller sees at once (FR-FCFS window)
  // 0: the scheduler sees all queue_depth bursts. > 0: DRAMsim3's two-level controller
  // (controller.cc, command_queue.cc): queue_depth is the transaction queue, which passes one
  // burst per cycle, the oldest whose bank has room, into command queues of this many bursts
  // (one per bank, or one per rank); the scheduler sees the command queues.
  int command_queue_depth = 0;
  bool command_queue_per_bank = true;
  // Which bank's command goes first: FR-FCFS over every queued burst (scheduler.h), or
  // DRAMsim3's round-robin over the banks (round_robin_scheduler.h; open page only).
  bool bank_round_robin = false;
  bool refresh = true;
  // With several ranks: each rank's all-bank refresh every tREFI, rank r's offset by
  // (r + 1) tREFI / ranks (DRAMsim3's RANK_LEVEL_STAGGERED), or every rank's at the same
  // cycles. The same with one rank.
  bool refresh_staggered = true;
  // Per-bank refresh instead of all-bank: every tREFIb the next bank, bank groups first, then
  // banks, then ranks (DRAMsim3's BANK_LEVEL_STAGGERED order), is precharged and refreshed.
  bool refresh_per_bank = false;
  bool record_commands = true;  // keep the issued command stream (for the checker and traces)
};

struct DramConfig {
  std::string name;
  DramOrganization organization;
  DramTiming timing;
  ControllerOptions controller;

  // Derived quantities.
  int64_t transfers_per_clock() const;  // data_rate / clock: 2 for DDR, 4 or 8 with WCK
  int64_t burst_cycles() const;         // tBL: clock cycles one burst occupies the data bus
  int pseudo_channel_width_bits() const;
  int64_t bytes_per_burst() const;  // burst_length x pseudo-channel width / 8
  int64_t bursts_per_row() const;
  int64_t row_bytes() const;             // one row of one pseudo-channel bank
  int banks_per_pseudo_channel() const;  // of one rank
  int pseudo_channel_count() const;      // channels x pseudo-channels: independent controllers
  int64_t capacity_bytes() const;
  // Peak bandwidth in GB/s (10^9 bytes/s): channel width x data rate / 8.
  double peak_bandwidth_gbps_per_channel() const;
  double peak_bandwidth_gbps() const;  // all channels
  double clock_period_ns() const;

  // Throws polyarch::Error (bad input) naming the first invalid field.
  void validate() const;
};

}  // namespace polyarch::sim::dram
