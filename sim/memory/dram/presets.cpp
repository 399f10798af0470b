#include "sim/memory/dram/presets.h"

#include <string>

#include "base/error.h"

namespace polyarch::sim::dram {

// Nanosecond parameters are converted to cycles with JESD79-4's rounding rule (section 13.5):
// nCK = ceil(t / tCK) with a 2.5% guardband, the values written below already rounded.

DramConfig ddr4_3200() {
  // JESD79-4B speed bin DDR4-3200AA (22-22-22) and Micron MT40A1G8 (8 Gb x8) datasheet,
  // tCK = 0.625 ns; the same values as DRAMsim3's configs/DDR4_8Gb_x8_3200.ini. A 64-bit rank
  // of eight x8 devices: 4 bank groups x 4 banks, 64 Ki rows, 1 KiB page per device (8 KiB per
  // rank). Peak: 64 bit x 3200 MT/s / 8 = 25.6 GB/s.
  DramConfig config;
  config.name = "ddr4_3200";
  config.organization = {.channels = 1,
                         .pseudo_channels = 1,
                         .bank_groups = 4,
                         .banks_per_group = 4,
                         .rows = 65536,
                         .columns = 1024,
                         .burst_length = 8,
                         .channel_width_bits = 64,
                         .data_rate_mtps = 3200,
                         .clock_mhz = 1600};
  config.timing = {.tRCD = 22,      // 13.75 ns
                   .tRP = 22,       // 13.75 ns
                   .tRAS = 52,      // 32 ns
                   .tCL = 22,       // CL22
                   .tWL = 16,       // CWL16 (1tCK write preamble)
                   .tCCD_S = 4,     // 4 nCK
                   .tCCD_L = 8,     // max(5 nCK, 5 ns)
                   .tRRD_S = 4,     // max(4 nCK, 2.5 ns), 1 KiB page
                   .tRRD_L = 8,     // max(4 nCK, 4.9 ns)
                   .tFAW = 34,      // 21 ns, 1 KiB page
                   .tWR = 24,       // 15 ns
                   .tWTR_S = 4,     // max(2 nCK, 2.5 ns)
                   .tWTR_L = 12,    // max(4 nCK, 7.5 ns)
                   .tRTP = 12,      // max(4 nCK, 7.5 ns)
                   .tREFI = 12480,  // 7.8 us (0-85 C)
                   .tRFC = 560,     // tRFC1 = 350 ns for 8 Gb
                   .tRTW_turnaround = 2,
                   .max_postponed_refreshes = 8};
  return config;
}

DramConfig lpddr5_6400() {
  // JESD209-5B LPDDR5-6400 in bank-group mode (required above 3200 Mb/s), as in Micron's
  // LPDDR5 datasheets: CK = 800 MHz (tCK = 1.25 ns), WCK:CK = 4:1, so 8 transfers per CK and a
  // BL16 burst takes 2 CK. One x16 channel of a 16 Gb die: 4 bank groups x 4 banks, 64 Ki rows,
  // 2 KiB page. Peak: 16 bit x 6400 MT/s / 8 = 12.8 GB/s per channel. LPDDR5 has one tRRD for
  // all banks, so tRRD_S = tRRD_L.
  DramConfig config;
  config.name = "lpddr5_6400";
  config.organization = {.channels = 1,
                         .pseudo_channels = 1,
                         .bank_groups = 4,
                         .banks_per_group = 4,
                         .rows = 65536,
                         .columns = 1024,
                         .burst_length = 16,
                         .channel_width_bits = 16,
                         .data_rate_mtps = 6400,
                         .clock_mhz = 800};
  config.timing = {.tRCD = 15,     // 18 ns
                   .tRP = 15,      // tRPpb 18 ns
                   .tRAS = 34,     // 42 ns
                   .tCL = 17,      // RL 17 nCK at 6400 (read-latency set 0)
                   .tWL = 9,       // WL 9 nCK (set A)
                   .tCCD_S = 2,    // BL16 / 8 transfers per CK
                   .tCCD_L = 4,    // bank-group mode, BL16
                   .tRRD_S = 4,    // max(5 ns, 2 nCK)
                   .tRRD_L = 4,    // max(5 ns, 2 nCK)
                   .tFAW = 16,     // 20 ns
                   .tWR = 28,      // 34 ns
                   .tWTR_S = 5,    // 6.25 ns
                   .tWTR_L = 10,   // 12 ns
                   .tRTP = 6,      // 7.5 ns
                   .tREFI = 3125,  // 3.906 us
                   .tRFC = 224,    // tRFCab 280 ns for 16 Gb
                   .tRTW_turnaround = 2,
                   .max_postponed_refreshes = 8};
  return config;
}

DramConfig hbm2e_3200() {
  // JESD235C HBM2 at the HBM2E speed of 3.2 Gb/s/pin (Samsung Flashbolt, SK hynix HBM2E):
  // CK = 1.6 GHz (tCK = 0.625 ns), DDR. 8 channels of 128 bits, each 2 pseudo-channels of 64
  // bits with BL4 (32 B per burst); per pseudo-channel 4 bank groups x 4 banks, 32 Ki rows,
  // 1 KiB page. Array timings in ns as DRAMsim3's configs/HBM2_8Gb_x128.ini (which states them
  // at tCK = 1 ns), converted to 0.625 ns cycles. Peak: 128 bit x 3200 MT/s / 8 = 51.2 GB/s
  // per channel, 409.6 GB/s per stack.
  DramConfig config;
  config.name = "hbm2e_3200";
  config.organization = {.channels = 8,
                         .pseudo_channels = 2,
                         .bank_groups = 4,
                         .banks_per_group = 4,
                         .rows = 32768,
                         .columns = 128,
                         .burst_length = 4,
                         .channel_width_bits = 128,
                         .data_rate_mtps = 3200,
                         .clock_mhz = 1600,
                         // JESD235: a row and a column command bus.
                         .dual_command_issue = true};
  config.timing = {.tRCD = 23,     // 14 ns
                   .tRP = 23,      // 14 ns
                   .tRAS = 55,     // 34 ns
                   .tCL = 23,      // 14 ns
                   .tWL = 7,       // 4 ns
                   .tCCD_S = 2,    // = tBL (1 ns on DRAMsim3's part, limited by the burst)
                   .tCCD_L = 4,    // 2 ns
                   .tRRD_S = 7,    // 4 ns
                   .tRRD_L = 10,   // 6 ns
                   .tFAW = 48,     // 30 ns
                   .tWR = 26,      // 16 ns
                   .tWTR_S = 10,   // 6 ns
                   .tWTR_L = 13,   // 8 ns
                   .tRTP = 10,     // tRTP_L 6 ns
                   .tREFI = 6240,  // 3.9 us
                   .tRFC = 416,    // 260 ns for 8 Gb
                   .tRTW_turnaround = 2,
                   .max_postponed_refreshes = 8};
  return config;
}

DramConfig hbm3_6400() {
  // JESD238 HBM3 at 6.4 Gb/s/pin (SK hynix HBM3, 819 GB/s per stack): 16 channels of 64 bits,
  // each 2 pseudo-channels of 32 bits with BL8 (32 B per burst). The command clock runs at
  // 1.6 GHz with 4 transfers per CK, so a burst takes 2 CK. Per pseudo-channel 4 bank groups x
  // 4 banks, 32 Ki rows, 1 KiB page. The DRAM core is the HBM2E one, so array timings in ns are
  // those of hbm2e_3200(); tRFC is JESD238's 350 ns for a 16 Gb die. Peak: 64 bit x 6400 MT/s /
  // 8 = 51.2 GB/s per channel, 819.2 GB/s per stack.
  DramConfig config = hbm2e_3200();
  config.name = "hbm3_6400";
  config.organization.channels = 16;
  config.organization.columns = 256;
  config.organization.burst_length = 8;
  config.organization.channel_width_bits = 64;
  config.organization.data_rate_mtps = 6400;
  config.organization.clock_mhz = 1600;
  config.timing.tRFC = 560;  // 350 ns
  return config;
}

DramConfig gddr6_16000() {
  // JESD250 GDDR6 at 16 Gb/s/pin (Micron MT61K256M32 family): CK = 2 GHz (tCK = 0.5 ns),
  // WCK = 4 GHz in QDR mode, so 8 transfers per CK and a BL16 burst takes 2 CK. A x32 device
  // is two independent x16 channels; per channel 4 bank groups x 4 banks, 16 Ki rows, 2 KiB
  // page. Timings in ns as Ramulator 2's GDDR6 preset (GDDR6_2000_1350mV), converted to 0.5 ns
  // cycles. Peak: 16 bit x 16000 MT/s / 8 = 32 GB/s per channel, 64 GB/s per device.
  DramConfig config;
  config.name = "gddr6_16000";
  config.organization = {.channels = 2,
                         .pseudo_channels = 1,
                         .bank_groups = 4,
                         .banks_per_group = 4,
                         .rows = 16384,
                         .columns = 1024,
                         .burst_length = 16,
                         .channel_width_bits = 16,
                         .data_rate_mtps = 16000,
                         .clock_mhz = 2000};
  config.timing = {.tRCD = 30,     // tRCDRD 14.8 ns
                   .tRP = 30,      // 14.8 ns
                   .tRAS = 61,     // 30.2 ns
                   .tCL = 28,      // 13.7 ns
                   .tWL = 7,       // 3.4 ns
                   .tCCD_S = 2,    // = tBL
                   .tCCD_L = 3,    // 1.5 x tCCD_S
                   .tRRD_S = 8,    // 4 ns
                   .tRRD_L = 8,    // 4 ns
                   .tFAW = 32,     // 16 ns
                   .tWR = 30,      // 14.8 ns
                   .tWTR_S = 11,   // 5.1 ns
                   .tWTR_L = 13,   // 6.3 ns
                   .tRTP = 5,      // 2.3 ns
                   .tREFI = 3800,  // 1.9 us
                   .tRFC = 240,    // 120 ns for 8 Gb
                   .tRTW_turnaround = 2,
                   .max_postponed_refreshes = 8};
  return config;
}

std::vector<std::string_view> preset_names() {
  return {"ddr4_3200", "lpddr5_6400", "hbm2e_3200", "hbm3_6400", "gddr6_16000"};
}

DramConfig preset(std::string_view name) {
  if (name == "ddr4_3200") return ddr4_3200();
  if (name == "lpddr5_6400") return lpddr5_6400();
  if (name == "hbm2e_3200") return hbm2e_3200();
  if (name == "hbm3_6400") return hbm3_6400();
  if (name == "gddr6_16000") return gddr6_16000();
  std::string known;
  for (std::string_view preset_name : preset_names()) {
    known += known.empty() ? "" : ", ";
    known += preset_name;
  }
  throw_bad_input(config_key("dram.preset"),
                  "unknown DRAM preset '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace polyarch::sim::dram
