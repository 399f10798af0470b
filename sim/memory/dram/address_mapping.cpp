#include "sim/memory/dram/address_mapping.h"

#include <bit>
#include <vector>

namespace polyarch::sim::dram {
namespace {

int log2_exact(int64_t power_of_two) {
  return std::countr_zero(static_cast<uint64_t>(power_of_two));
}

}  // namespace

std::vector<AddressMapping::Field*> AddressMapping::field_order_fields(std::string_view order) {
  // The string names fields from the most significant down. Without "pc", pseudo-channels sit
  // right below the channel field.
  std::vector<Field*> fields;
  for (size_t i = order.size(); i >= 2; i -= 2) {
    const std::string_view name = order.substr(i - 2, 2);
    if (name == "ch") {
      if (order.find("pc") == std::string_view::npos) fields.push_back(&pseudo_channel_);
      fields.push_back(&channel_);
    } else if (name == "pc") {
      fields.push_back(&pseudo_channel_);
    } else if (name == "ra") {
      fields.push_back(&rank_);
    } else if (name == "bg") {
      fields.push_back(&bank_group_);
    } else if (name == "ba") {
      fields.push_back(&bank_);
    } else if (name == "ro") {
      fields.push_back(&row_);
    } else if (name == "co") {
      fields.push_back(&column_);
    }
  }
  return fields;
}

AddressMapping::AddressMapping(const DramConfig& config)
    : scheme_(config.controller.address_scheme), burst_length_(config.organization.burst_length) {
  config.validate();
  const DramOrganization& org = config.organization;
  channel_.bits = log2_exact(org.channels);
  pseudo_channel_.bits = log2_exact(org.pseudo_channels);
  rank_.bits = log2_exact(org.ranks);
  bank_group_.bits = log2_exact(org.bank_groups);
  bank_.bits = log2_exact(org.banks_per_group);
  column_.bits = log2_exact(config.bursts_per_row());
  row_.bits = log2_exact(org.rows);

  // Fields from the least significant upwards, after the burst offset.
  std::vector<Field*> order;
  switch (scheme_) {
    case AddressScheme::kRowBankCol:
    case AddressScheme::kPermutedBank:
      order = {&channel_, &pseudo_channel_, &column_, &bank_group_, &bank_, &rank_, &row_};
      break;
    case AddressScheme::kRowColBank:
      order = {&channel_, &pseudo_channel_, &bank_group_, &bank_, &rank_, &column_, &row_};
      break;
    case AddressScheme::kBankInterleaved:
      order = {&channel_, &pseudo_channel_, &bank_group_, &column_, &bank_, &rank_, &row_};
      break;
    case AddressScheme::kFieldOrder:
      order = field_order_fields(config.controller.field_order);
      break;
  }
  int shift = log2_exact(config.bytes_per_burst());
  for (Field* field : order) {
    field->shift = shift;
    shift += field->bits;
  }
  for (Field* field : {&channel_, &pseudo_channel_, &rank_, &bank_group_, &bank_, &column_, &row_}) {
    field->mask = (uint64_t{1} << field->bits) - 1;
  }
}

int64_t AddressMapping::encode(const DramAddress& address) const {
  int bank_group = address.bank_group;
  int bank = address.bank;
  if (scheme_ == AddressScheme::kPermutedBank) permute_banks(address.row, bank_group, bank);
  const auto place = [](int64_t value, Field field) {
    return (static_cast<uint64_t>(value) & field.mask) << field.shift;
  };
  const uint64_t value =
      place(address.channel, channel_) | place(address.pseudo_channel, pseudo_channel_) |
      place(address.rank, rank_) | place(bank_group, bank_group_) | place(bank, bank_) |
      place(address.column / burst_length_, column_) | place(address.row, row_);
  return static_cast<int64_t>(value);
}

}  // namespace polyarch::sim::dram
