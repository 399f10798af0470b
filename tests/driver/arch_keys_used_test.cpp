// Every key an arch file accepts changes a result or is rejected. For each shipped arch file and
// each key the key tables declare for the parts that file has (its top level, `memory:` or the
// JEDEC `memory.dram:`, each unit's kind), written or left at its default, the key is given
// another value and the run repeated on a small workload of every op class the kinds run (plus,
// for a few parts, the ops their keys act on: see extra_layers); the report (latency, energy,
// area, power, temperatures, per-op figures) must differ, or the value be rejected as bad input,
// or the key be marked descriptive in its table. Crossbar units also multiply two static-weight
// products through their analog engine (`run --functional`'s numerics), which the `analog.*` keys
// and the ADC's range are for. A key whose effect another key's value hides is judged again with
// that mask lifted (masks()). The `thermal:` keys, which no shipped file writes, are perturbed
// once, on one small SoC. Keys found unused and not yet settled are listed in known_unused().
//
// Perturbations: a number or int takes x2, /2, +1 or -1 (the first inside its range and
// different); a key whose default is not a value ("SoC clock", "none", "from preset") is tried at
// 1, 8, 64 and 1024 (clamped to its range) since its resolved value is not known here; a choice
// takes each other choice in turn; a bool flips; a string takes a listed alternative (technology
// nodes, N:M patterns, address mappings); a list loses its first item; a map of numbers has every
// entry doubled. A value that changes nothing is followed by the next trial (numbers: /16, x16,
// then the range's minimum); a unit's keys are judged on that unit alone, and then, where nothing
// changed, on the whole SoC (PIM units sharing the DRAM with the host act through its traffic).
// Other maps are containers whose keys are rows of their own; keys marked descriptive (names) are
// not perturbed, nor `kind`, `base` and `from` (the table and the file structure).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "archs/crossbar/analog_engine.h"
#include "archs/soc/soc_config.h"
#include "archs/soc/soc_keys.h"
#include "base/config_tree.h"
#include "compiler/frontend/layer_list.h"
#include "driver/run.h"
#include "reports/json_report.h"
#include "sim/thermal/package_config.h"
#include "tests/support/ir_builders.h"

namespace polyarch::driver {
namespace {

// One op of each class the unit kinds run, small enough that a run takes milliseconds: a GEMM,
// a decode GEMV (what PIM units take), a convolution, attention, softmax, both norms, unary and
// binary elementwise ops, and an op in a 16-bit type (what packed lanes are for).
constexpr const char* kProbeWorkload = R"(name: key_probe
layers:
  - {name: proj, op: gemm, m: 16, n: 64, k: 64}
  - {name: decode, op: gemm, m: 1, n: 128, k: 64}
  - {name: conv, op: conv2d, c: 8, h: 8, w: 8, k: 16, r: 3, s: 3, pad: 1}
  - {name: attn, op: attention, h: 1, s: 8, d: 8}
  - {name: smax, op: softmax, rows: 16, cols: 32}
  - {name: lnorm, op: layernorm, rows: 16, cols: 64}
  - {name: rnorm, op: rmsnorm, rows: 16, cols: 64}
  - {name: act, op: elementwise, fn: relu, elements: 1024}
  - {name: add, op: elementwise, fn: add, elements: 1024}
  - {name: half_add, op: elementwise, fn: add, elements: 1024, dtype: fp16}
)";

// Ops that only some parts' keys act on, added where those keys are judged (the key's section):
// - simd: a GEMM large enough for the matrix engines (small ones run on the vector lanes,
//   latency bound), with 2:4 pruned weights, which is what `matrix_engine.sparse_mn` is for;
// - crossbar: weights beyond every shipped crossbar's arrays, so the cells are reprogrammed
//   (what the `cell.write_*` keys time and price);
// - pim: a long decode GEMV beside a host softmax, so that host traffic meets the PUs' work in
//   a DRAM they share (what `preemption` decides);
// - the JEDEC DRAM: megabytes read and written, so that refresh, the activate windows and the
//   read/write turnarounds fall inside the run;
// - dataflow: an elementwise multiply, whose pipeline depth carries the multiplier's latency (in
//   a GEMM tile without a MAC the products have slack beside the adder chain), and one GEMM
//   twice in a row, the second finding its configuration resident (what
//   `config.context_switch_cycles` times; the probe's own GEMMs map to different tiles).
const std::map<std::string, std::vector<std::string>>& extra_layers() {
  static const std::map<std::string, std::vector<std::string>> layers = {
      {"simd", {"{name: pruned, op: gemm, m: 1024, n: 1024, k: 1024}"}},
      {"crossbar", {"{name: oversized, op: gemm, m: 1, n: 8192, k: 8192}"}},
      {"pim",
       {"{name: pim_stream, op: gemm, m: 1, n: 4096, k: 1024}",
        "{name: host_stream, op: softmax, rows: 1024, cols: 1024}"}},
      {"dvfs", {"{name: long_gemm, op: gemm, m: 512, n: 512, k: 1024}"}},
      {"dataflow",
       {"{name: scale, op: elementwise, fn: mul, elements: 1024, inputs: 2}",
        "{name: repeat_first, op: gemm, m: 16, n: 64, k: 64}",
        "{name: repeat_second, op: gemm, m: 16, n: 64, k: 64}"}},
      {"dram",
       {"{name: stream_read, op: gemm, m: 1, n: 4096, k: 1024}",
        "{name: stream_write, op: conv2d, c: 16, h: 128, w: 128, k: 32, r: 1, s: 1}"}}};
  return layers;
}

ir::Graph build_probe_graph(const std::string& section) {
  std::string text = kProbeWorkload;
  if (const auto extras = extra_layers().find(section); extras != extra_layers().end()) {
    for (const std::string& layer : extras->second) text += "  - " + layer + "\n";
  }
  ir::Graph graph =
      frontend::layer_list_from_config(parse_config_text(text, "key_probe.yaml"), "key_probe");
  for (const ir::NodeId node : graph.topological_ops()) {
    // The sparsity pass's annotation of 2:4 pruned weights.
    if (graph.op(node).name == "pruned") graph.op(node).weight_sparsity = {0.5, 2, 4};
  }
  return graph;
}

const ir::Graph& probe_graph(const std::string& section) {
  static std::map<std::string, ir::Graph> graphs;
  auto found = graphs.find(section);
  if (found == graphs.end()) found = graphs.emplace(section, build_probe_graph(section)).first;
  return found->second;
}

// A path from the document's root: map keys, and "#i" for item i of a sequence.
using TreePath = std::vector<std::string>;

std::optional<std::size_t> item_index(const std::string& step) {
  if (step.empty() || step[0] != '#') return std::nullopt;
  return static_cast<std::size_t>(std::stoul(step.substr(1)));
}

const ConfigNode* node_at(const ConfigNode& root, const TreePath& path) {
  const ConfigNode* node = &root;
  for (const std::string& step : path) {
    if (const std::optional<std::size_t> index = item_index(step)) {
      if (!node->is_sequence() || *index >= node->items().size()) return nullptr;
      node = &node->items()[*index];
    } else {
      node = node->find(step);
      if (node == nullptr) return nullptr;
    }
  }
  return node;
}

// `node` with the value at `path` replaced by `value`; maps on the way are created.
ConfigNode with_value(const ConfigNode& node, std::span<const std::string> path,
                      const ConfigNode& value) {
  const std::string& step = path.front();
  if (const std::optional<std::size_t> index = item_index(step)) {
    ConfigNode copy = ConfigNode::make_sequence(node.where());
    for (std::size_t i = 0; i < node.items().size(); ++i) {
      copy.append(i == *index ? with_value(node.items()[i], path.subspan(1), value)
                              : node.items()[i]);
    }
    return copy;
  }
  ConfigNode copy = node;
  if (path.size() == 1) {
    copy.set(step, value);
    return copy;
  }
  const ConfigNode* child = node.find(step);
  copy.set(step, with_value(child != nullptr ? *child : ConfigNode::make_map(node.where()),
                            path.subspan(1), value));
  return copy;
}

TreePath split_path(const TreePath& section, const std::string& dotted) {
  TreePath path = section;
  std::size_t start = 0;
  for (std::size_t dot = dotted.find('.');; dot = dotted.find('.', start)) {
    path.push_back(dotted.substr(start, dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return path;
}

SourceLocation perturbed_at(const std::string& key) { return {"perturbed", 0, 0, key}; }

std::optional<double> number_of(const std::string& text) {
  try {
    std::size_t used = 0;
    const double value = std::stod(text, &used);
    if (used == text.size()) return value;
  } catch (const std::exception&) {
  }
  return std::nullopt;
}

std::string number_text(const KeySpec& spec, double value) {
  if (spec.type == KeyType::kInt) return std::to_string(static_cast<int64_t>(value));
  return default_text(value);
}

// The first value that differs from `current`; then, tried only while nothing changed, far ones
// (/16, x16) and the range's minimum: a bound (a capacity, a bandwidth behind another limit)
// may act only far from the written value, a noise only above the ADC's step.
std::vector<std::string> number_trials(const KeySpec& spec, std::optional<double> current) {
  const auto in_range = [&](double value) {
    return value >= spec.min_value && value <= spec.max_value;
  };
  std::vector<std::string> trials;
  if (!current) {
    // The resolved value is unknown: values far apart, all but one of which differ from it.
    for (const double value : {1.0, 8.0, 64.0, 1024.0}) {
      const std::string text = number_text(spec, std::clamp(value, spec.min_value, spec.max_value));
      if (std::find(trials.begin(), trials.end(), text) == trials.end()) trials.push_back(text);
    }
    return trials;
  }
  const double value = *current;
  const auto add_first = [&](std::initializer_list<double> candidates) {
    for (double candidate : candidates) {
      if (spec.type == KeyType::kInt) candidate = std::round(candidate);
      const std::string text = number_text(spec, candidate);
      if (candidate != value && in_range(candidate) &&
          std::find(trials.begin(), trials.end(), text) == trials.end()) {
        trials.push_back(text);
        return;
      }
    }
  };
  add_first({value * 2, value / 2, value + 1, value - 1});
  add_first({value / 16});
  add_first({value * 16});
  add_first({spec.min_value});
  return trials;
}

// Alternatives for the string keys that name a value from a set the table does not list.
const std::map<std::string, std::vector<std::string>>& string_alternatives() {
  static const std::map<std::string, std::vector<std::string>> alternatives = {
      {"technology", {"7nm", "65nm"}},
      {"matrix_engine.sparse_mn", {"2:4", "1:2"}},
      {"controller.address_mapping",
       {"row_bank_col", "row_col_bank", "bank_interleaved", "permuted_bank"}}};
  return alternatives;
}

// The values to try for `spec`, written at `current` (null: absent); empty: skipped.
std::vector<ConfigNode> trials_for(const KeySpec& spec, const ConfigNode* current) {
  const SourceLocation where = perturbed_at(spec.path);
  const auto scalars = [&](const std::vector<std::string>& texts) {
    std::vector<ConfigNode> nodes;
    for (const std::string& text : texts) nodes.push_back(ConfigNode::make_scalar(text, where));
    return nodes;
  };
  const std::optional<std::string> written =
      current != nullptr && current->is_scalar() ? std::optional(current->scalar()) : std::nullopt;
  const std::string value = written.value_or(spec.default_value);
  switch (spec.type) {
    case KeyType::kInt:
    case KeyType::kNumber:
      return scalars(number_trials(spec, number_of(value)));
    case KeyType::kBool:
      return scalars({value == "true" ? "false" : "true"});
    case KeyType::kChoice: {
      const auto found = std::find(spec.choices.begin(), spec.choices.end(), value);
      if (found == spec.choices.end()) {
        std::vector<std::string> two(
            spec.choices.begin(),
            spec.choices.begin() + std::min<std::size_t>(2, spec.choices.size()));
        return scalars(two);
      }
      // Every other choice, the next first: two choices may coincide in one configuration
      // (staggered and simultaneous refresh of a single rank).
      std::vector<std::string> others;
      for (auto choice = found + 1; choice != spec.choices.end(); ++choice)
        others.push_back(*choice);
      for (auto choice = spec.choices.begin(); choice != found; ++choice) others.push_back(*choice);
      return scalars(others);
    }
    case KeyType::kString: {
      const auto alternatives = string_alternatives().find(spec.path);
      if (alternatives == string_alternatives().end()) return {};
      std::vector<std::string> others;
      for (const std::string& alternative : alternatives->second) {
        if (alternative != value) others.push_back(alternative);
      }
      return scalars(others);
    }
    case KeyType::kList: {
      if (current == nullptr || !current->is_sequence() || current->items().size() < 2) return {};
      ConfigNode shorter = ConfigNode::make_sequence(current->where());
      for (std::size_t i = 1; i < current->items().size(); ++i) shorter.append(current->items()[i]);
      return {shorter};
    }
    case KeyType::kMap: {
      if (current == nullptr || !current->is_map() || current->entries().empty()) return {};
      ConfigNode doubled = ConfigNode::make_map(current->where());
      for (const auto& [key, entry] : current->entries()) {
        const std::optional<double> number =
            entry.is_scalar() ? number_of(entry.scalar()) : std::nullopt;
        if (!number) return {};  // a container: its keys are rows of their own
        doubled.set(key, ConfigNode::make_scalar(default_text(*number * 2), where));
      }
      return {doubled};
    }
  }
  return {};
}

bool skipped_by_design(const KeySpec& spec) {
  return spec.path == "name" || spec.path == "kind" || spec.path == "base" || spec.path == "from";
}

// A part of an arch file and the run its keys are judged by.
struct Section {
  const KeyTable* table = nullptr;
  TreePath path;
  int only_unit = -1;  // the run keeps only this unit (its keys judged by its own ops)
  bool crossbar = false;
};

std::vector<Section> sections_of(const ConfigNode& root) {
  std::vector<Section> sections = {{&archs::key_table_named("soc"), {}}};
  const ConfigNode* dram = node_at(root, {"memory", "dram"});
  const bool jedec =
      dram != nullptr && (dram->find("preset") != nullptr || dram->find("standard") != nullptr ||
                          dram->find("from") != nullptr);
  if (jedec) {
    sections.push_back({&archs::key_table_named("dram"), {"memory", "dram"}});
  } else {
    sections.push_back({&archs::key_table_named("memory"), {"memory"}});
  }
  const ConfigNode* units = root.find("units");
  for (std::size_t i = 0; i < units->items().size(); ++i) {
    const std::string kind = units->items()[i].find("kind")->scalar();
    sections.push_back({&archs::key_table_named(kind),
                        {"units", "#" + std::to_string(i)},
                        units->items().size() > 1 ? static_cast<int>(i) : -1,
                        kind == "crossbar"});
  }
  return sections;
}

// Static-weight products through the first crossbar unit's analog engine: their outputs and the
// engine's statistics. The first has weights spread over both signs; the second's are all near
// the top of the range, so that most cells of a column hold a one, which is what flipped
// columns (ISAAC's encoding) are for.
nlohmann::ordered_json analog_product(const archs::SocConfig& soc) {
  constexpr int64_t m = 2;
  constexpr int64_t k = 96;
  constexpr int64_t n = 8;
  ir::GemmAttrs gemm;
  gemm.m = m;
  gemm.n = n;
  gemm.k = k;
  const ir::Op op = test_support::make_op("probe", gemm);
  std::vector<float> activations(m * k);
  for (std::size_t i = 0; i < activations.size(); ++i)
    activations[i] = static_cast<float>(static_cast<int64_t>(i * 37 % 17) - 8) / 8.0F;
  std::vector<float> spread(k * n);
  std::vector<float> high(k * n);
  for (std::size_t i = 0; i < spread.size(); ++i) {
    spread[i] = static_cast<float>(static_cast<int64_t>(i * 29 % 23) - 11) / 11.0F;
    high[i] = 1.0F - static_cast<float>(i * 29 % 23) / 184.0F;  // 0.875 .. 1
  }
  nlohmann::ordered_json json;
  for (const auto& [name, weights] : {std::pair{"spread", &spread}, std::pair{"high", &high}}) {
    auto engine = archs::crossbar::analog_engine_for(soc, "perturbed", 1);
    const std::vector<float> product = engine->multiply({op, 0, m, k, n, activations, *weights});
    json[name] = {{"product", product}, {"stats", engine->op_stats("probe")}};
  }
  return json;
}

struct Outcome {
  bool rejected = false;
  std::string error;
  nlohmann::ordered_json report;
};

Outcome evaluate(const ConfigNode& root, const Section& section) {
  Outcome outcome;
  try {
    archs::SocConfig soc = archs::parse_soc_config(root);
    if (section.only_unit >= 0) {
      const std::string keep = soc.units[section.only_unit]->name();
      std::erase_if(soc.units, [&](const auto& unit) { return unit->name() != keep; });
    }
    ir::Graph graph = probe_graph(section.table->section);
    fit_graph_to_soc(soc, graph, false, true);
    nlohmann::ordered_json report = reports::report_json(simulate_workload(soc, graph));
    // What the run echoes of its configuration is no result.
    report.erase("arch");
    report.erase("provenance");
    if (report.contains("memory")) report["memory"].erase("capacity_bytes");
    if (section.crossbar) report["analog_product"] = analog_product(soc);
    outcome.report = std::move(report);
  } catch (const Error& error) {
    if (error.kind() != ErrorKind::kBadInput) throw;
    outcome.rejected = true;
    outcome.error = error.what();
  }
  return outcome;
}

struct KeyVerdict {
  std::string key;
  std::string what;  // "changed", "rejected", "descriptive", "skipped", "UNUSED"
};

// Keys whose effect another key's value can hide, with the values that lift the mask. A 5-bit
// ADC (neurosim_rram_like) quantizes the probe's column sums in steps wider than the difference
// between a lognormal and a normal 3 % programming spread (of order sigma^2); a 7-bit one (the
// finest whose range still matters on its 128-row arrays) and a 30 % spread let it show. Such a
// key is judged against a baseline with the mask lifted too, only when it changes nothing as the
// file has it, and the verdict says so.
const std::map<std::string, std::vector<std::pair<std::string, std::string>>>& masks() {
  static const std::map<std::string, std::vector<std::pair<std::string, std::string>>> table = {
      {"crossbar:analog.program_variation", {{"adc.bits", "7"}, {"analog.program_sigma", "0.3"}}},
      // A DPU's instructions outlast its DMA transfers on every probe op; 8-byte blocks make
      // the transfers the bound, which their fixed latencies then set.
      {"pim:core.dma_read_latency_cycles", {{"core.dma_block_bytes", "8"}}},
      {"pim:core.dma_write_latency_cycles", {{"core.dma_block_bytes", "8"}}},
  };
  return table;
}

// `root` with a mask (masks()) lifted in the section at `section_path`.
ConfigNode with_mask_lifted(const ConfigNode& root, const TreePath& section_path,
                            const std::vector<std::pair<std::string, std::string>>& lift) {
  ConfigNode lifted = root;
  for (const auto& [dotted, value] : lift) {
    lifted = with_value(lifted, split_path(section_path, dotted),
                        ConfigNode::make_scalar(value, root.where()));
  }
  return lifted;
}

std::vector<KeyVerdict> judge_section(const ConfigNode& root, const Section& section) {
  const Outcome baseline = evaluate(root, section);
  EXPECT_FALSE(baseline.rejected) << baseline.error;
  std::optional<Outcome> whole_soc;
  if (section.only_unit >= 0) whole_soc = evaluate(root, Section{section.table, section.path});
  std::vector<KeyVerdict> verdicts;
  for (const KeySpec& spec : section.table->keys) {
    const std::string key = section.table->section + ":" + spec.path;
    if (skipped_by_design(spec)) continue;
    if (spec.descriptive) {
      verdicts.push_back({key, "descriptive"});
      continue;
    }
    const TreePath path = split_path(section.path, spec.path);
    const std::vector<ConfigNode> trials = trials_for(spec, node_at(root, path));
    if (trials.empty()) {
      if (spec.type != KeyType::kMap) verdicts.push_back({key, "skipped"});
      continue;
    }
    std::string what = "UNUSED";
    for (const ConfigNode& trial : trials) {
      const ConfigNode perturbed = with_value(root, path, trial);
      const Outcome outcome = evaluate(perturbed, section);
      if (outcome.rejected) {
        what = "rejected";
      } else if (outcome.report != baseline.report) {
        what = "changed";
      } else if (whole_soc) {
        const Outcome whole = evaluate(perturbed, Section{section.table, section.path});
        if (whole.rejected || whole.report != whole_soc->report) what = "changed on the SoC";
      }
      if (what != "UNUSED") break;
    }
    if (const auto mask = masks().find(key); what == "UNUSED" && mask != masks().end()) {
      const ConfigNode lifted = with_mask_lifted(root, section.path, mask->second);
      const Outcome lifted_baseline = evaluate(lifted, section);
      EXPECT_FALSE(lifted_baseline.rejected) << key << ": " << lifted_baseline.error;
      for (const ConfigNode& trial : trials) {
        if (lifted_baseline.rejected) break;
        const Outcome outcome = evaluate(with_value(lifted, path, trial), section);
        if (!outcome.rejected && outcome.report != lifted_baseline.report) {
          what = "changed with its mask lifted";
          break;
        }
      }
    }
    verdicts.push_back({key, what});
  }
  return verdicts;
}

std::string arch_path(const std::string& file) {
  return std::string(POLYARCH_SOURCE_DIR) + "/configs/arch/" + file;
}

// Keys this test finds unused and polyarch has not settled yet, each with what is known; the
// test fails when one of them starts to change a result (drop it here) as for any new one.
// None at present: every key of every shipped arch changes a result or is rejected.
const std::map<std::string, std::string>& known_unused() {
  static const std::map<std::string, std::string> known = {
      // The chip's 0.72 GB/s off-chip link (its interconnect) binds far below the LPDDR4
      // behind it at any timing preset's streaming rate.
      {"eyeriss_like.yaml memory:dram.timing", "the off-chip link binds first"}};
  return known;
}

void expect_every_key_used(const ConfigNode& root, const std::vector<Section>& sections,
                           const std::string& label) {
  for (const Section& section : sections) {
    for (const KeyVerdict& verdict : judge_section(root, section)) {
      const auto known = known_unused().find(label + " " + verdict.key);
      std::printf("[ key       ] %s %s %s%s\n", label.c_str(), verdict.key.c_str(),
                  verdict.what.c_str(),
                  known != known_unused().end() ? (" (known: " + known->second + ")").c_str() : "");
      if (known != known_unused().end()) {
        EXPECT_EQ(verdict.what, "UNUSED") << label << ": " << verdict.key << " now " << verdict.what
                                          << ": drop it from known_unused()";
        continue;
      }
      EXPECT_NE(verdict.what, "UNUSED")
          << label << ": " << verdict.key
          << " changes no result: use it in the model, reject it, or mark it descriptive";
    }
  }
}

class ArchKeysUsed : public testing::TestWithParam<std::string> {};

TEST_P(ArchKeysUsed, EveryKeyChangesTheReportOrIsRejectedOrDescriptive) {
  const ConfigNode root = load_config_with_base(arch_path(GetParam()));
  expect_every_key_used(root, sections_of(root), GetParam());
}

std::vector<std::string> shipped_arch_files() {
  std::vector<std::string> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(POLYARCH_SOURCE_DIR) + "/configs/arch")) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

INSTANTIATE_TEST_SUITE_P(ShippedArchs, ArchKeysUsed, testing::ValuesIn(shipped_arch_files()),
                         [](const testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param.substr(0, info.param.find('.'));
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// No shipped file writes `thermal:`: every run has HotSpot's default package, so the keys are
// judged once, on a small single-unit SoC with the section written out at its defaults.
TEST(ArchKeysUsed, EveryThermalKeyChangesTheTemperatures) {
  const ConfigNode root = load_config_with_base(arch_path("edge_os_32x32.yaml"));
  const Section thermal{&archs::key_table_named("thermal"), {"thermal"}};
  expect_every_key_used(root, {thermal}, "thermal");
}

// No shipped file throttles on a run as short as the probe's: the `dvfs:` keys are judged on
// the edge array in a package that heats in microseconds (heat capacities near zero, 20 K/W to
// ambient), running the probe and a GEMM of a few hundred microseconds (extra_layers), with
// trip and release temperatures set between ambient and the peak that run reaches unthrottled.
TEST(ArchKeysUsed, EveryDvfsKeyChangesTheThrottling) {
  ConfigNode root = load_config_with_base(arch_path("edge_os_32x32.yaml"));
  const TreePath thermal_path = {"thermal"};
  const TreePath dvfs_path = {"dvfs"};
  root = with_value(root, thermal_path,
                    parse_config_text(R"({
      die: {volumetric_heat_capacity: 1}, tim: {volumetric_heat_capacity: 1},
      spreader: {volumetric_heat_capacity: 1}, sink: {volumetric_heat_capacity: 1},
      convection: {r_k_per_w: 20, c_j_per_k: 1.0e-9}})",
                                      "dvfs_probe.yaml"));
  const Section dvfs{&archs::key_table_named("dvfs"), dvfs_path};
  const Outcome unthrottled = evaluate(root, dvfs);
  ASSERT_FALSE(unthrottled.rejected) << unthrottled.error;
  const double ambient_c = sim::thermal::PackageConfig{}.ambient_k - 273.15;
  const double peak_c = unthrottled.report["summary"]["peak_temp_c"].get<double>();
  ASSERT_GT(peak_c, ambient_c + 1.0);
  const double trip_c = ambient_c + 0.6 * (peak_c - ambient_c);
  const double release_c = ambient_c + 0.4 * (peak_c - ambient_c);
  root = with_value(
      root, dvfs_path,
      parse_config_text("{trip_c: " + default_text(trip_c) +
                            ", release_c: " + default_text(release_c) +
                            ", interval_s: 1.0e-5, levels: [{clock_scale: 0.7, vdd_scale: 0.9}, "
                            "{clock_scale: 0.4, vdd_scale: 0.8}]}",
                        "dvfs_probe.yaml"));
  const Outcome throttled = evaluate(root, dvfs);
  ASSERT_FALSE(throttled.rejected) << throttled.error;
  std::printf("dvfs probe: peak %.2f C unthrottled, trip %.2f C; latency %.6g -> %.6g s\n", peak_c,
              trip_c, unthrottled.report["summary"]["latency_s"].get<double>(),
              throttled.report["summary"]["latency_s"].get<double>());
  EXPECT_GT(throttled.report["summary"]["latency_s"].get<double>(),
            unthrottled.report["summary"]["latency_s"].get<double>())
      << "the probe never throttled";
  expect_every_key_used(root, {dvfs}, "dvfs");
}

}  // namespace
}  // namespace polyarch::driver
