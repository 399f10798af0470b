#include "archs/pim/params.h"

#include <cmath>

#include "archs/common_keys.h"
#include "base/error.h"
#include "sim/memory/dram/presets.h"

namespace polyarch::archs::pim {

int64_t PimParams::pseudo_channels() const {
  return devices * dram.pseudo_channel_count();
}

int64_t PimParams::pus_per_pseudo_channel() const {
  return dram.banks_per_pseudo_channel() / banks_per_pu;
}

int64_t PimParams::pu_count() const { return pseudo_channels() * pus_per_pseudo_channel(); }

double PimParams::pu_cycles_per_dram_cycle() const {
  const double dram_mhz = static_cast<double>(dram.organization.clock_mhz);
  return pu_clock_mhz > 0 ? pu_clock_mhz / dram_mhz : 1.0;
}

PimParams parse_pim_params(MapReader& unit_reader, const std::string& unit_name) {
  PimParams params;
  params.name = unit_name;
  std::vector<std::string> presets;
  for (std::string_view preset_name : sim::dram::preset_names()) presets.emplace_back(preset_name);
  params.memory_preset = unit_reader.required_enum("memory", presets);
  params.dram = sim::dram::preset(params.memory_preset);
  params.devices = unit_reader.optional_int("devices", 1, 1, 4096);
  const int banks = params.dram.banks_per_pseudo_channel();
  params.banks_per_pu = unit_reader.optional_int("banks_per_pu", 1, 1, banks);
  if (banks % params.banks_per_pu != 0) {
    throw_bad_input(unit_reader.required("banks_per_pu").where(),
                    "banks_per_pu=" + std::to_string(params.banks_per_pu) + " does not divide the " +
                        std::to_string(banks) + " banks of a " + params.memory_preset +
                        " pseudo-channel");
  }
  params.lanes = unit_reader.required_int("lanes", 1, 4096);
  params.pu_clock_mhz = unit_reader.optional_double("pu_clock_mhz", 0.0, 0.0, 1e5);
  params.dtype = optional_dtype_key(unit_reader, "dtype", params.dtype);
  if (const ConfigNode* functions = unit_reader.optional("functions")) {
    if (!functions->is_sequence()) {
      throw_bad_input(functions->where(), "functions must be a list such as [add, mul, relu]");
    }
    params.functions.clear();
    for (const ConfigNode& item : functions->items()) params.functions.insert(item.scalar());
  }
  params.register_bytes = unit_reader.optional_int("register_bytes", 256, 2, int64_t{1} << 30);
  params.max_batch = unit_reader.optional_int("max_batch", 16, 1, int64_t{1} << 20);
  if (const ConfigNode* split = unit_reader.optional("energy_split")) {
    MapReader reader(*split);
    params.activation_share = reader.optional_double("activation", params.activation_share, 0, 1);
    params.core_share = reader.optional_double("core", params.core_share, 0, 1);
    params.io_share = reader.optional_double("io", params.io_share, 0, 1);
    reader.finish();
    if (std::abs(params.activation_share + params.core_share + params.io_share - 1.0) > 1e-6) {
      throw_bad_input(split->where(), "energy_split shares must add up to 1");
    }
  }
  params.mode = unit_reader.optional_enum("mode", "all_bank", {"all_bank", "per_bank"}) ==
                        "per_bank"
                    ? PimMode::kPerBank
                    : PimMode::kAllBank;
  params.reduction =
      unit_reader.optional_enum("reduction", "host", {"host", "channel_adder"}) == "channel_adder"
          ? Reduction::kChannelAdder
          : Reduction::kHost;
  return params;
}

}  // namespace polyarch::archs::pim
