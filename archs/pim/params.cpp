#include "archs/pim/params.h"

#include <cmath>
#include <utility>

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
  std::vector<std::string> names{std::string(kSharedMemory)};
  for (std::string_view name : sim::dram::preset_names()) names.emplace_back(name);
  return names;
}

std::string joined_functions(const std::set<std::string>& functions) {
  std::string text;
  for (const std::string& function : functions) text += (text.empty() ? "" : ", ") + function;
  return "[" + text + "]";
}

// The shares of the DRAM energy per bit; written or not, they add up to 1.
void parse_energy_split(KeyReader& unit, PimParams& params) {
  KeyReader reader = unit.nested_or_defaults("energy_split");
  params.activation_share = reader.read_number("activation");
  params.core_share = reader.read_number("core");
  params.io_share = reader.read_number("io");
  reader.finish();
  if (std::abs(params.activation_share + params.core_share + params.io_share - 1.0) > 1e-6) {
    throw_bad_input(reader.map_reader().node().where(), "energy_split shares must add up to 1");
  }
}

// `pu: core`: the lanes are programmable cores (core_timing.h) timed by the `core:` keys; with
// `pu: simd` those keys would change nothing, so a value other than the default is refused.
std::optional<PimCoreParams> parse_core(KeyReader& unit) {
  const bool programmable = unit.read_choice("pu") == "core";
  const PimCoreParams defaults;
  PimCoreParams core;
  KeyReader reader = unit.nested_or_defaults("core");
  core.tasklets = reader.read_int("tasklets");
  core.dispatch_interval_cycles = reader.read_int("dispatch_interval_cycles");
  core.dma_block_bytes = reader.read_int("dma_block_bytes");
  core.dma_read_latency_cycles = reader.read_number("dma_read_latency_cycles");
  core.dma_write_latency_cycles = reader.read_number("dma_write_latency_cycles");
  core.dma_cycles_per_byte = reader.read_number("dma_cycles_per_byte");
  core.loop_instructions = reader.read_int("loop_instructions");
  core.mul_instructions = reader.read_int("mul_instructions");
  if (!programmable) {
    const std::pair<const char*, bool> keys_changed[] = {
        {"tasklets", core.tasklets != defaults.tasklets},
        {"dispatch_interval_cycles",
         core.dispatch_interval_cycles != defaults.dispatch_interval_cycles},
        {"dma_block_bytes", core.dma_block_bytes != defaults.dma_block_bytes},
        {"dma_read_latency_cycles",
         core.dma_read_latency_cycles != defaults.dma_read_latency_cycles},
        {"dma_write_latency_cycles",
         core.dma_write_latency_cycles != defaults.dma_write_latency_cycles},
        {"dma_cycles_per_byte", core.dma_cycles_per_byte != defaults.dma_cycles_per_byte},
        {"loop_instructions", core.loop_instructions != defaults.loop_instructions},
        {"mul_instructions", core.mul_instructions != defaults.mul_instructions}};
    for (const auto& [key, changed] : keys_changed) {
      const ConfigNode* node = reader.map_reader().optional(key);
      if (node != nullptr && changed) {
        throw_bad_input(node->where(), std::string("core.") + key +
                                           " times a programmable core, which pu: simd (the "
                                           "default) does not have; write pu: core");
      }
    }
  }
  reader.finish();
  if (!programmable) return std::nullopt;
  return core;
}

void check_banks_per_pu(const PimParams& params, const SourceLocation& where) {
  const int banks = params.dram.banks_per_pseudo_channel();
  if (params.banks_per_pu > banks || banks % params.banks_per_pu != 0) {
    throw_bad_input(where, "banks_per_pu=" + std::to_string(params.banks_per_pu) +
                               " does not divide the " + std::to_string(banks) + " banks of a " +
                               params.dram.name + " pseudo-channel");
  }
}

}  // namespace

void bind_soc_memory(PimParams& params, const sim::DramSpec& soc_dram,
                     const sim::DramView& external) {
  params.external = external;
  if (!params.shares_soc_memory()) return;
  if (soc_dram.model != "jedec" || !soc_dram.jedec_config) {
    throw_bad_input(params.memory_where,
                    "pim unit '" + params.name +
                        "' has memory: shared, which needs the SoC's memory.dram in JEDEC form "
                        "(a standard or preset, model: jedec); this one is the simple queue");
  }
  params.dram = *soc_dram.jedec_config;
  if (params.dram.organization.ranks != 1 || params.dram.controller.refresh_per_bank) {
    throw_bad_input(params.memory_where,
                    "pim unit '" + params.name +
                        "' has memory: shared, which is modelled on a DRAM of one rank per "
                        "channel with all-bank refresh; this one has " +
                        std::to_string(params.dram.organization.ranks) + " ranks" +
                        (params.dram.controller.refresh_per_bank ? " and per-bank refresh" : ""));
  }
  check_banks_per_pu(params, params.banks_per_pu_where);
}

const KeyTable& pim_keys() {
  static const KeyTable table = [] {
    const PimParams params;
    const PimCoreParams core;
    return unit_key_table(
        "pim", "processing units beside the banks of a JEDEC DRAM preset",
        {choice_key("memory", kRequired, memory_presets(),
                    "the DRAM preset (organisation and timing) of the PUs' own device, or "
                    "'shared': the SoC's JEDEC DRAM, whose banks host traffic uses too"),
         int_key("devices", "", default_text(params.devices), 1, 4096, "stacks, chips or DIMMs"),
         int_key("banks_per_pu", "banks", default_text(params.banks_per_pu), 1, 4096,
                 "banks one PU serves; divides the banks of a pseudo-channel"),
         int_key("lanes", "lanes", kRequired, 1, 4096,
                 "SIMD lanes per PU, or with pu: core its programmable cores"),
         choice_key("pu", "simd", {"simd", "core"},
                    "what a PU's lanes are: SIMD lanes, or programmable in-order cores (threads, "
                    "pipeline, DMA between bank and scratchpad) as UPMEM's DPUs, timed by core:"),
         map_key("core", "{}", "pu: core: the cores' threads, pipeline and DMA"),
         int_key("core.tasklets", "threads", default_text(core.tasklets), 1, 1024,
                 "threads the kernel runs on a core"),
         int_key("core.dispatch_interval_cycles", "cycles",
                 default_text(core.dispatch_interval_cycles), 1, 1024,
                 "cycles between two instructions of one thread (pipeline depth it waits out)"),
         int_key("core.dma_block_bytes", "B", default_text(core.dma_block_bytes), 8, 1 << 20,
                 "bytes of one bank-to-scratchpad transfer"),
         number_key("core.dma_read_latency_cycles", "cycles",
                    default_text(core.dma_read_latency_cycles), 0.0, 1e6,
                    "fixed cycles of a transfer from the bank (alpha)"),
         number_key("core.dma_write_latency_cycles", "cycles",
                    default_text(core.dma_write_latency_cycles), 0.0, 1e6,
                    "fixed cycles of a transfer to the bank (alpha)"),
         number_key("core.dma_cycles_per_byte", "cycles/B", default_text(core.dma_cycles_per_byte),
                    0.0, 1e6, "cycles per byte of a transfer (beta)"),
         int_key("core.loop_instructions", "", default_text(core.loop_instructions), 0, 1 << 20,
                 "instructions per element of a streaming loop besides loads, stores and "
                 "arithmetic (address, index, branch)"),
         int_key("core.mul_instructions", "", default_text(core.mul_instructions), 1, 1 << 20,
                 "instructions per multiplication of dtype (more than 1 where emulated)"),
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
                    "who adds the partial sums: the host or an adder per channel"),
         choice_key("preemption", "op", {"op", "row"},
                    "memory: shared: host traffic takes the banks only after a PIM op, or after "
                    "every row of its work")});
  }();
  return table;
}

PimParams parse_pim_params(KeyReader& unit, const std::string& unit_name) {
  PimParams params;
  params.name = unit_name;
  params.memory_preset = unit.read_choice("memory");
  params.memory_where = unit.map_reader().required("memory").where();
  if (params.shares_soc_memory()) {
    // The organisation is the SoC's, known once its memory is read (bind_soc_memory).
    params.devices = unit.read_int_at_most("devices", 1);
    params.banks_per_pu = unit.read_int("banks_per_pu");
    const ConfigNode* node = unit.map_reader().optional("banks_per_pu");
    params.banks_per_pu_where = node != nullptr ? node->where() : params.memory_where;
  } else {
    params.dram = sim::dram::preset(params.memory_preset);
    params.devices = unit.read_int("devices");
    unit.note_derived("devices", "pseudo_channels", params.pseudo_channels());
    // The table's bound is generous; the preset's bank count is the real one.
    params.banks_per_pu =
        unit.read_int_at_most("banks_per_pu", params.dram.banks_per_pseudo_channel());
    const ConfigNode* node = unit.map_reader().optional("banks_per_pu");
    check_banks_per_pu(params, node != nullptr ? node->where() : params.memory_where);
    unit.note_derived("banks_per_pu", "pus", params.pu_count());
  }
  params.lanes = unit.read_int("lanes");
  params.core = parse_core(unit);
  params.pu_clock_mhz = unit.read_number("pu_clock_mhz");
  params.dtype = read_dtype(unit, "dtype");
  if (const ConfigNode* functions = unit.map_reader().optional("functions")) {
    if (!functions->is_sequence()) {
      throw_bad_input(functions->where(), "functions must be a list such as [add, mul, relu]");
    }
    params.functions.clear();
    for (const ConfigNode& item : functions->items()) params.functions.insert(item.scalar());
  }
  unit.note("functions", params.functions);
  params.register_bytes = unit.read_int("register_bytes");
  params.max_batch = unit.read_int("max_batch");
  parse_energy_split(unit, params);
  params.mode = unit.read_choice("mode") == "per_bank" ? PimMode::kPerBank : PimMode::kAllBank;
  params.reduction = unit.read_choice("reduction") == "channel_adder" ? Reduction::kChannelAdder
                                                                      : Reduction::kHost;
  params.host_waits_for_op = unit.read_choice("preemption") == "op";
  // Preemption is the host's turn at banks it shares with the PUs; a PIM device of its own
  // serves no host traffic, so `row` would change nothing there.
  if (const ConfigNode* node = unit.map_reader().optional("preemption");
      node != nullptr && !params.shares_soc_memory() && !params.host_waits_for_op) {
    throw_bad_input(node->where(),
                    "preemption: row applies to PUs in the SoC's own DRAM (memory: "
                    "shared); memory: " +
                        params.memory_preset +
                        " is a device of its own, which no host traffic reaches");
  }
  return params;
}

}  // namespace polyarch::archs::pim
