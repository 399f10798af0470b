#include "archs/pim/params.h"

#include <cmath>

#include "archs/common_keys.h"
#include "base/error.h"
#include "base/key_specs.h"
#include "sim/memory/dram/presets.h"

namespace polyarch::archs::pim {

int64_t PimParams::pseudo_channels() const { return devices * dram.pseudo_channel_count(); }

int64_t PimParams::pus_per_pseudo_channel() const {
  return dram.banks_per_pseudo_channel() / banks_per_pu;
}

int64_t PimParams::pu_count() const { return pseudo_channels() * pus_per_pseudo_channel(); }

double PimParams::pu_cycles_per_dram_cycle() const {
  const double dram_mhz = static_cast<double>(dram.organization.clock_mhz);
  return pu_clock_mhz > 0 ? pu_clock_mhz / dram_mhz : 1.0;
}

namespace {

std::vector<std::string> memory_presets() {
  std::vector<std::string> names;
  for (std::string_view name : sim::dram::preset_names()) names.emplace_back(name);
  return names;
}

std::string joined_functions(const std::set<std::string>& functions) {
  std::string text;
  for (const std::string& function : functions) text += (text.empty() ? "" : ", ") + function;
  return "[" + text + "]";
}

}  // namespace

const KeyTable& pim_keys() {
  static const KeyTable table = [] {
    const PimParams params;
    return unit_key_table(
        "pim", "processing units beside the banks of a JEDEC DRAM preset",
        {choice_key("memory", kRequired, memory_presets(),
                    "the DRAM preset (organisation and timing)"),
         int_key("devices", "", default_text(params.devices), 1, 4096, "stacks, chips or DIMMs"),
         int_key("banks_per_pu", "banks", default_text(params.banks_per_pu), 1, 4096,
                 "banks one PU serves; divides the banks of a pseudo-channel"),
         int_key("lanes", "lanes", kRequired, 1, 4096, "SIMD lanes per PU"),
         number_key("pu_clock_mhz", "MHz", default_text(params.pu_clock_mhz), 0.0, 1e5,
                    "PU clock; 0 = the DRAM command clock"),
         dtype_key("dtype", params.dtype, "operand type"),
         list_key("functions", joined_functions(params.functions),
                  "elementwise functions a PU implements"),
         int_key("register_bytes", "B", default_text(params.register_bytes), 2, int64_t{1} << 30,
                 "per PU: the slice of the input vector it holds"),
         int_key("max_batch", "", default_text(params.max_batch), 1, int64_t{1} << 20,
                 "GEMM rows and attention queries per head it takes"),
         map_key("energy_split", "{}", "shares of the DRAM energy per bit (adding up to 1)"),
         number_key("energy_split.activation", "", default_text(params.activation_share), 0, 1,
                    "share for row activation"),
         number_key("energy_split.core", "", default_text(params.core_share), 0, 1,
                    "share for the array's column access"),
         number_key("energy_split.io", "", default_text(params.io_share), 0, 1,
                    "share for the external I/O"),
         choice_key("mode", "all_bank", {"all_bank", "per_bank"},
                    "one command drives all PUs of a pseudo-channel, or each PU its own"),
         choice_key("reduction", "host", {"host", "channel_adder"},
                    "who adds the partial sums: the host or an adder per channel")});
  }();
  return table;
}

PimParams parse_pim_params(MapReader& unit_reader, const std::string& unit_name) {
  const KeyTable& keys = pim_keys();
  PimParams params;
  params.name = unit_name;
  params.memory_preset = read_choice(unit_reader, keys.at("memory"));
  params.dram = sim::dram::preset(params.memory_preset);
  params.devices = read_int(unit_reader, keys.at("devices"));
  const int banks = params.dram.banks_per_pseudo_channel();
  // The table's bound is generous; the preset's bank count is the real one.
  params.banks_per_pu = read_int_at_most(unit_reader, keys.at("banks_per_pu"), banks);
  if (banks % params.banks_per_pu != 0) {
    throw_bad_input(unit_reader.required("banks_per_pu").where(),
                    "banks_per_pu=" + std::to_string(params.banks_per_pu) +
                        " does not divide the " + std::to_string(banks) + " banks of a " +
                        params.memory_preset + " pseudo-channel");
  }
  params.lanes = read_int(unit_reader, keys.at("lanes"));
  params.pu_clock_mhz = read_number(unit_reader, keys.at("pu_clock_mhz"));
  params.dtype = read_dtype(unit_reader, keys.at("dtype"));
  if (const ConfigNode* functions = unit_reader.optional("functions")) {
    if (!functions->is_sequence()) {
      throw_bad_input(functions->where(), "functions must be a list such as [add, mul, relu]");
    }
    params.functions.clear();
    for (const ConfigNode& item : functions->items()) params.functions.insert(item.scalar());
  }
  params.register_bytes = read_int(unit_reader, keys.at("register_bytes"));
  params.max_batch = read_int(unit_reader, keys.at("max_batch"));
  if (const ConfigNode* split = unit_reader.optional("energy_split")) {
    MapReader reader(*split);
    params.activation_share = read_number(reader, keys.at("energy_split.activation"));
    params.core_share = read_number(reader, keys.at("energy_split.core"));
    params.io_share = read_number(reader, keys.at("energy_split.io"));
    finish_with_table(reader, keys, "energy_split");
    if (std::abs(params.activation_share + params.core_share + params.io_share - 1.0) > 1e-6) {
      throw_bad_input(split->where(), "energy_split shares must add up to 1");
    }
  }
  params.mode = read_choice(unit_reader, keys.at("mode")) == "per_bank" ? PimMode::kPerBank
                                                                        : PimMode::kAllBank;
  params.reduction = read_choice(unit_reader, keys.at("reduction")) == "channel_adder"
                         ? Reduction::kChannelAdder
                         : Reduction::kHost;
  return params;
}

}  // namespace polyarch::archs::pim
