#pragma once
// Physical byte address <-> DRAM coordinates. The burst offset occupies the lowest bits; the
// remaining bits are cut into fields in the order the AddressScheme names (config.h) or, for
// kFieldOrder, the order string spells, most significant field first (DRAMsim3's
// `address_mapping`, e.g. "rochrababgco" = row | channel | rank | bank | bank group | column).
// Every field count is a power of two, so each field is a bit range; addresses past the capacity
// wrap.
#include <cstdint>
#include <string_view>
#include <vector>

#include "sim/memory/dram/config.h"

namespace polyarch::sim::dram {

struct DramAddress {
  int channel = 0;
  int pseudo_channel = 0;
  int rank = 0;
  int bank_group = 0;
  int bank = 0;  // within its bank group
  int64_t row = 0;
  int column = 0;  // first column of the burst (a multiple of burst_length)

  bool operator==(const DramAddress&) const = default;
};

class AddressMapping {
 public:
  explicit AddressMapping(const DramConfig& config);

  // Inline: the controllers decode every burst they are given.
  DramAddress decode(int64_t byte_address) const;
  // The lowest byte address that decodes to `address` (its burst's first byte).
  int64_t encode(const DramAddress& address) const;

 private:
  struct Field {
    int shift = 0;
    int bits = 0;
    uint64_t mask = 0;  // (1 << bits) - 1, kept so that decode() does not compute it per field
  };
  static int64_t extract(uint64_t value, Field field);
  // kPermutedBank: XOR the bank bits with the row's low bits (its own inverse, so decode and
  // encode both apply it).
  void permute_banks(int64_t row, int& bank_group, int& bank) const;
  // The fields of a DRAMsim3-style order string ("rochrababgco"), least significant first.
  std::vector<Field*> field_order_fields(std::string_view order);

  AddressScheme scheme_;
  int burst_length_ = 1;
  Field channel_, pseudo_channel_, rank_, bank_group_, bank_, column_, row_;
};

inline int64_t AddressMapping::extract(uint64_t value, Field field) {
  return static_cast<int64_t>((value >> field.shift) & field.mask);
}

inline DramAddress AddressMapping::decode(int64_t byte_address) const {
  const auto value = static_cast<uint64_t>(byte_address);
  DramAddress address;
  address.channel = static_cast<int>(extract(value, channel_));
  address.pseudo_channel = static_cast<int>(extract(value, pseudo_channel_));
  address.rank = static_cast<int>(extract(value, rank_));
  address.bank_group = static_cast<int>(extract(value, bank_group_));
  address.bank = static_cast<int>(extract(value, bank_));
  address.row = extract(value, row_);
  address.column = static_cast<int>(extract(value, column_)) * burst_length_;
  if (scheme_ == AddressScheme::kPermutedBank) {
    permute_banks(address.row, address.bank_group, address.bank);
  }
  return address;
}

inline void AddressMapping::permute_banks(int64_t row, int& bank_group, int& bank) const {
  // Permutation-based page interleaving (Zhang, Zhu and Zhang, MICRO-33, 2000): rows that
  // conflict in one bank spread over all banks.
  const auto row_bits = static_cast<uint64_t>(row);
  bank_group ^= static_cast<int>(row_bits & bank_group_.mask);
  bank ^= static_cast<int>((row_bits >> bank_group_.bits) & bank_.mask);
}

}  // namespace polyarch::sim::dram
