#include "sim/memory/dram/config.h"

#include <gtest/gtest.h>

#include <string>

#include "base/error.h"
#include "sim/memory/dram/presets.h"

namespace polyarch::sim::dram {
namespace {

// Peak bandwidths as the datasheets state them (GB/s = 10^9 bytes/s).
TEST(DramPresets, PeakBandwidthMatchesDatasheets) {
  struct Expected {
    DramConfig config;
    double per_channel_gbps;
    double total_gbps;
  };
  const Expected cases[] = {
      {ddr4_3200(), 25.6, 25.6},    // PC4-25600 DIMM
      {lpddr5_6400(), 12.8, 12.8},  // x16 channel
      {hbm2e_3200(), 51.2, 409.6},  // 410 GB/s per stack (Samsung Flashbolt)
      {hbm3_6400(), 51.2, 819.2},   // 819 GB/s per stack (SK hynix HBM3)
      {gddr6_16000(), 32.0, 64.0},  // 64 GB/s per x32 device
  };
  for (const Expected& expected : cases) {
    SCOPED_TRACE(expected.config.name);
    expected.config.validate();
    EXPECT_DOUBLE_EQ(expected.config.peak_bandwidth_gbps_per_channel(), expected.per_channel_gbps);
    EXPECT_DOUBLE_EQ(expected.config.peak_bandwidth_gbps(), expected.total_gbps);
    // The same figure from the burst view: bytes per burst every tBL cycles per pseudo-channel.
    const double burst_gbps = static_cast<double>(expected.config.bytes_per_burst()) /
                              static_cast<double>(expected.config.burst_cycles()) *
                              expected.config.pseudo_channel_count() /
                              expected.config.clock_period_ns();
    EXPECT_DOUBLE_EQ(burst_gbps, expected.total_gbps);
  }
}

TEST(DramPresets, DerivedBurstGeometry) {
  const DramConfig ddr4 = ddr4_3200();
  EXPECT_EQ(ddr4.burst_cycles(), 4);  // BL8 at DDR
  EXPECT_EQ(ddr4.bytes_per_burst(), 64);
  EXPECT_EQ(ddr4.row_bytes(), 8192);
  EXPECT_EQ(ddr4.capacity_bytes(), int64_t{8} << 30);  // 8 x 8 Gb devices
  const DramConfig hbm = hbm2e_3200();
  EXPECT_EQ(hbm.burst_cycles(), 2);  // BL4 at DDR
  EXPECT_EQ(hbm.bytes_per_burst(), 32);
  EXPECT_EQ(hbm.pseudo_channel_count(), 16);
  const DramConfig lpddr5 = lpddr5_6400();
  EXPECT_EQ(lpddr5.transfers_per_clock(), 8);
  EXPECT_EQ(lpddr5.burst_cycles(), 2);
}

TEST(DramPresets, LooksUpByName) {
  for (std::string_view name : preset_names()) EXPECT_EQ(preset(name).name, name);
  try {
    preset("ddr9");
    FAIL() << "unknown preset accepted";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_NE(std::string(error.what()).find("hbm2e_3200"), std::string::npos) << error.what();
  }
}

void expect_invalid(DramConfig config, const std::string& key) {
  try {
    config.validate();
    FAIL() << "accepted an invalid " << key;
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_EQ(error.where().key_path, "dram." + key) << error.what();
  }
}

TEST(DramConfig, RejectsInvalidOrganisationAndTiming) {
  DramConfig config = ddr4_3200();
  config.organization.banks_per_group = 3;
  expect_invalid(config, "banks_per_group");
  config = ddr4_3200();
  config.organization.clock_mhz = 1000;  // 3200 MT/s is not a multiple of 1000 MHz
  expect_invalid(config, "data_rate_mtps");
  config = ddr4_3200();
  config.organization.channel_width_bits = 60;
  expect_invalid(config, "channel_width_bits");
  config = ddr4_3200();
  config.timing.tCCD_L = 2;
  expect_invalid(config, "tCCD_L");
  config = ddr4_3200();
  config.timing.tRFC = config.timing.tREFI;
  expect_invalid(config, "tREFI");
  config = ddr4_3200();
  config.timing.tRCD = 0;
  expect_invalid(config, "tRCD");
  config = ddr4_3200();
  config.controller.queue_depth = 0;
  expect_invalid(config, "queue_depth");
}

TEST(DramConfig, ParsesPolicyAndSchemeNames) {
  EXPECT_EQ(parse_page_policy("closed"), PagePolicy::kClosed);
  EXPECT_EQ(page_policy_name(PagePolicy::kOpen), "open");
  for (AddressScheme scheme : {AddressScheme::kRowBankCol, AddressScheme::kRowColBank,
                               AddressScheme::kBankInterleaved, AddressScheme::kPermutedBank}) {
    EXPECT_EQ(parse_address_scheme(address_scheme_name(scheme)), scheme);
  }
  EXPECT_THROW(parse_address_scheme("row_row"), Error);
  EXPECT_THROW(parse_page_policy("ajar"), Error);
}

}  // namespace
}  // namespace polyarch::sim::dram
