#pragma once
// Processing units beside the banks (HBM-PIM, AiM) take their column accesses from the same
// controller and the same bank state machines as host traffic, so the two meet where they do on
// the device: at the banks' open rows, the command bus and the refresh schedule.
//
// The controller serves PIM work in blocks (a unit's stream of rows cut where the controller may
// turn to host traffic). Within a block every PU streams its share row by row, rows alternating
// over its banks: ACT as soon as the bank and tRRD/tFAW allow, column commands paced by the
// bank state (tRCD, tCCD) and by the PU's arithmetic on each burst, PRE when the bank is needed
// again. Every command passes through BankState, which holds the JEDEC timing; the sequencer
// itself knows no timing formula. One command per command-clock cycle.
//  - all-bank mode (HBM-PIM's AB-PIM): one command drives every PU of the pseudo-channel in
//    lockstep, so one PU's banks (bank group 0, banks 0 .. banks_per_pu - 1) stand for all. The
//    device enters and leaves the mode with an ACT and PRE to a reserved row (Lee et al., ISCA
//    2021, "Hardware architecture and software stack for PIM based on commercial DRAM
//    technology", SB <-> AB mode change), after every open bank was closed: host traffic arriving
//    in PIM mode waits for the block, then for the exit.
//  - per-bank mode (AiM-like): each PU issues its own commands to its own banks; PUs take the
//    command bus round-robin and their ACTs meet tRRD and tFAW. No mode change; host rows left
//    open in a PU's banks are closed first (a conflict), and the PUs' rows stay open after.
// Refresh stays the controller's: when it falls due, PUs finish their current row, every bank
// closes, REF issues, and the stream goes on after tRFC.
#include <cstdint>
#include <functional>

#include "sim/memory/dram/channel_state.h"
#include "sim/memory/dram/config.h"

namespace polyarch::sim::dram {

enum class PimCommandMode { kAllBank, kPerBank };

// One block of a stream in which every PU of the pseudo-channel reads `bursts` column accesses,
// bursts [first_burst, first_burst + bursts) of its `total_bursts`. Burst b of a PU lies in the
// stream's row b / bursts_per_row, which is DRAM row `base_row + (b / bursts_per_row) /
// banks_per_pu` of the PU's bank (b / bursts_per_row) % banks_per_pu.
struct PimBlock {
  PimCommandMode mode = PimCommandMode::kAllBank;
  int pus = 1;  // PUs on this pseudo-channel
  int banks_per_pu = 1;
  int64_t first_burst = 0;
  int64_t bursts = 0;
  int64_t total_bursts = 0;
  // Command-clock cycles a PU's arithmetic takes per burst: the least distance between two of
  // its column commands (0: as fast as tCCD allows).
  int64_t compute_cycles_per_burst = 0;
  int64_t base_row = 0;
};

struct PimBlockResult {
  int64_t last_command_cycle = 0;  // the block's last column command
  int64_t completion_cycle = 0;    // the last burst's data reached its PU and was computed on
};

// What PIM work did on one pseudo-channel.
struct PimCounters {
  int64_t blocks = 0;
  int64_t column_commands = 0;  // one per command on the bus (all-bank: drives every PU)
  int64_t activates = 0;
  int64_t precharges = 0;
  int64_t refreshes = 0;
  int64_t mode_entries = 0;
  int64_t mode_exits = 0;
  int64_t bursts_per_pu = 0;  // column accesses of one PU, summed over blocks
  // Bytes the column commands moved between banks and PUs (all-bank: a burst for every PU of
  // the pseudo-channel per command; per-bank: one PU's burst). They never cross the data bus.
  int64_t internal_bytes = 0;
  PimCounters& operator+=(const PimCounters& other);
  PimCounters since(const PimCounters& earlier) const;
};

// Receives each PIM column command's bytes between banks and PUs at the command's cycle, on the
// channel whose controller issued it (DramChannel's per-channel counters of internal bytes).
using PimInternalBytesSink = std::function<void(int channel, int64_t cycle, int64_t bytes)>;

// The controller's side that the sequencer drives: its bank state (PIM work is modelled on one
// rank, rank 0), its clock (the first cycle the command bus is free), its refresh schedule, and
// where issued commands are recorded.
struct PimControllerPort {
  ChannelState& banks;
  int64_t& now;
  int64_t& next_refresh_cycle;
  bool refresh_enabled = true;
  int64_t refresh_interval = 0;  // tREFI
  // Records one command at `cycle` (the controller's command stream and counters).
  std::function<void(CommandKind kind, int bank_group, int bank, int64_t row, int column,
                     int64_t cycle)>
      issue;
  // Counts a column command's internal bytes at its cycle; may be empty.
  std::function<void(int64_t cycle, int64_t bytes)> internal_bytes;
};

class PimSequencer {
 public:
  explicit PimSequencer(const DramConfig& config);

  // Serves one block arriving at `arrival` (no host burst waiting in the controller).
  PimBlockResult run(const PimBlock& block, int64_t arrival, PimControllerPort& port);
  // All-bank mode holds the device in PIM mode after a block; host traffic arriving from
  // `arrival` on needs it left first. No-op outside PIM mode.
  void leave_mode(int64_t arrival, PimControllerPort& port);
  bool in_pim_mode() const { return in_mode_; }
  const PimCounters& counters() const { return counters_; }

 private:
  void change_mode(bool enter, PimControllerPort& port);
  // Issues `kind` on (bank_group, bank) at the first cycle >= the bank state's earliest and the
  // command bus's; returns that cycle.
  int64_t issue_at_earliest(CommandKind kind, int bank_group, int bank, int64_t row,
                            PimControllerPort& port);
  void close_open_banks(PimControllerPort& port);

  DramConfig config_;
  int64_t bursts_per_row_;
  int64_t read_latency_;  // tCL + tBL: RD to the burst's last beat at the PU
  bool in_mode_ = false;
  PimCounters counters_;
};

}  // namespace polyarch::sim::dram
