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
  int bank_group = 0;
  int bank = 0;  // within its bank group
  int64_t row = 0;
  int column = 0;  // first column of the burst (a multiple of burst_length)

  bool operator==(const DramAddress&) const = default;
};

class AddressMapping {
 public:
  explicit AddressMapping(const DramConfig& config);

  DramAddress decode(int64_t byte_address) const;
  // The lowest byte address that decodes to `address` (its burst's first byte).
  int64_t encode(const DramAddress& address) const;

 private:
  struct Field {
    int shift = 0;
    int bits = 0;
  };
  static int64_t extract(uint64_t value, Field field);
  // The fields of a DRAMsim3-style order string ("rochrababgco"), least significant first.
  std::vector<Field*> field_order_fields(std::string_view order);

  AddressScheme scheme_;
  int burst_length_ = 1;
  Field channel_, pseudo_channel_, bank_group_, bank_, column_, row_;
};

}  // namespace polyarch::sim::dram
