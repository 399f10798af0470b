#include "sim/memory/dram/address_mapping.h"

#include <gtest/gtest.h>

#include <random>

#include "base/error.h"
#include "base/random_draw.h"
#include "sim/memory/dram/presets.h"

namespace polyarch::sim::dram {
namespace {

constexpr AddressScheme kSchemes[] = {AddressScheme::kRowBankCol, AddressScheme::kRowColBank,
                                      AddressScheme::kBankInterleaved,
                                      AddressScheme::kPermutedBank};

DramConfig with_scheme(DramConfig config, AddressScheme scheme) {
  config.controller.address_scheme = scheme;
  return config;
}

TEST(AddressMapping, EncodeInvertsDecodeForEveryPresetAndScheme) {
  const uint64_t seed = 11;
  std::mt19937_64 random(seed);
  for (std::string_view name : preset_names()) {
    for (AddressScheme scheme : kSchemes) {
      const DramConfig config = with_scheme(preset(name), scheme);
      const AddressMapping mapping(config);
      auto address = [&](auto& engine) {
        return polyarch::random_int(engine, 0, config.capacity_bytes() - 1);
      };
      for (int i = 0; i < 1000; ++i) {
        const int64_t byte = address(random);
        const int64_t burst_start = byte - byte % config.bytes_per_burst();
        const DramAddress decoded = mapping.decode(byte);
        ASSERT_EQ(mapping.encode(decoded), burst_start)
            << name << " " << address_scheme_name(scheme) << " seed " << seed;
        ASSERT_LT(decoded.row, config.organization.rows);
        ASSERT_EQ(decoded.column % config.organization.burst_length, 0);
      }
    }
  }
}

TEST(AddressMapping, RowBankColKeepsConsecutiveBurstsInOneRow) {
  const AddressMapping mapping(with_scheme(ddr4_3200(), AddressScheme::kRowBankCol));
  EXPECT_EQ(mapping.decode(64), (DramAddress{.row = 0, .column = 8}));
  EXPECT_EQ(mapping.decode(8192), (DramAddress{.bank_group = 1}));  // next row-sized block
  EXPECT_EQ(mapping.decode(4 * 8192), (DramAddress{.bank = 1}));    // after all bank groups
  EXPECT_EQ(mapping.decode(16 * 8192), (DramAddress{.row = 1}));    // after all banks
}

TEST(AddressMapping, RowColBankSpreadsConsecutiveBurstsOverBanks) {
  const AddressMapping mapping(with_scheme(ddr4_3200(), AddressScheme::kRowColBank));
  EXPECT_EQ(mapping.decode(64), (DramAddress{.bank_group = 1}));
  EXPECT_EQ(mapping.decode(4 * 64), (DramAddress{.bank = 1}));
  EXPECT_EQ(mapping.decode(16 * 64), (DramAddress{.column = 8}));
}

TEST(AddressMapping, BankInterleavedAlternatesBankGroupsWithinRows) {
  const AddressMapping mapping(with_scheme(ddr4_3200(), AddressScheme::kBankInterleaved));
  EXPECT_EQ(mapping.decode(64), (DramAddress{.bank_group = 1}));
  EXPECT_EQ(mapping.decode(4 * 64), (DramAddress{.column = 8}));
  EXPECT_EQ(mapping.decode(4 * 8192), (DramAddress{.bank = 1}));
}

TEST(AddressMapping, ChannelsAndPseudoChannelsInterleaveAtBurstGranularity) {
  const AddressMapping mapping(hbm2e_3200());  // 32 B bursts, 8 channels x 2 pseudo-channels
  EXPECT_EQ(mapping.decode(32), (DramAddress{.channel = 1}));
  EXPECT_EQ(mapping.decode(8 * 32), (DramAddress{.pseudo_channel = 1}));
}

TEST(AddressMapping, PermutedBankSpreadsOneBanksRowsOverAllBanks) {
  const DramConfig config = with_scheme(ddr4_3200(), AddressScheme::kPermutedBank);
  const AddressMapping mapping(config);
  const int64_t row_stride = int64_t{16} * 8192;  // same bank, next row in row_bank_col
  EXPECT_EQ(mapping.decode(row_stride), (DramAddress{.bank_group = 1, .row = 1}));
  EXPECT_EQ(mapping.decode(5 * row_stride), (DramAddress{.bank_group = 1, .bank = 1, .row = 5}));
}

TEST(AddressMapping, AddressesPastCapacityWrap) {
  const DramConfig config = ddr4_3200();
  const AddressMapping mapping(config);
  EXPECT_EQ(mapping.decode(config.capacity_bytes() + 128), mapping.decode(128));
}

}  // namespace
}  // namespace polyarch::sim::dram

namespace polyarch::sim::dram {
namespace {

TEST(AddressMapping, FieldOrderStringCutsFieldsMostSignificantFirst) {
  // DDR4-3200 under DRAMsim3's "rochrababgco": above the 64-byte burst offset come 7 column
  // bits, 2 bank-group bits, 2 bank bits, then the row (one channel, one rank: no bits).
  DramConfig config = ddr4_3200();
  config.controller.address_scheme = AddressScheme::kFieldOrder;
  config.controller.field_order = "rochrababgco";
  const AddressMapping mapping(config);
  EXPECT_EQ(mapping.decode(64).column, 8);
  EXPECT_EQ(mapping.decode(int64_t{1} << 13).bank_group, 1);
  EXPECT_EQ(mapping.decode(int64_t{1} << 15).bank, 1);
  EXPECT_EQ(mapping.decode(int64_t{5} << 17).row, 5);
  const DramAddress address{.bank_group = 2, .bank = 3, .row = 77, .column = 40};
  EXPECT_EQ(mapping.decode(mapping.encode(address)), address);

  config.controller.field_order = "rochrabacobg";  // bank group lowest
  const AddressMapping groups_lowest(config);
  EXPECT_EQ(groups_lowest.decode(64).bank_group, 1);
  EXPECT_EQ(groups_lowest.decode(256).column, 8);
}

TEST(AddressMapping, FieldOrderStringsMustNameEachFieldOnce) {
  DramConfig config = ddr4_3200();
  config.controller.address_scheme = AddressScheme::kFieldOrder;
  for (const char* bad : {"rochrababg", "rochrababgcoco", "rochrababgcx", "rochrababgc"}) {
    config.controller.field_order = bad;
    EXPECT_THROW(config.validate(), Error) << bad;
  }
}

}  // namespace
}  // namespace polyarch::sim::dram
