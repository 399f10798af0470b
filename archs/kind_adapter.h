#pragma once
// The one UnitConfig every kind shares. A kind is a traits struct naming its parameters, key
// table and free functions (see archs/systolic/kind.h for the shape); `supports` and `area_mm2`
// may leave out the parameters where the kind's answer does not depend on them; the adapter does
// what all kinds do alike: the unit's description (its keys as the table resolved them), the unit's
// clock (its own, else the SoC's), DRAM as seen at that clock, the unsupported-op guard, and the
// mapping search shared by the estimates and every model the factory makes. A kind whose model
// records its activity in the op's mapping names its strict reader `activity_of`, and its
// `op_energy` takes the typed activity (archs/dataflow/activity.h is one).
#include <concepts>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "archs/conversion_pass.h"
#include "archs/unit_config.h"
#include "base/config_tree.h"
#include "base/error.h"
#include "base/key_reader.h"
#include "base/key_table.h"

namespace polyarch::archs {

// Where one op of a unit is estimated or searched: the clock the unit runs at and DRAM as the
// kind's cost model sees it, in seconds and in cycles of that clock.
struct OpSurroundings {
  double clock_ghz = 1.0;
  MemoryContext memory;
  sim::MemoryView view;
  const MappingEnergy& energy;
};

namespace detail {
struct NoUnitState {};
template <class Kind>
struct UnitStateOf {
  using type = NoUnitState;
};
template <class Kind>
requires requires { typename Kind::State; }
struct UnitStateOf<Kind> {
  using type = typename Kind::State;
};
}  // namespace detail

// One unit of a kind as the kind's functions see it: its parameters, the kind's per-unit state
// (e.g. a mapping cache, where the kind declares `using State`), and the mapping search in
// force (null: the kind's own mapping choices).
template <class Kind>
struct KindUnit {
  using State = typename detail::UnitStateOf<Kind>::type;

  typename Kind::Params params;
  std::shared_ptr<State> state = std::make_shared<State>();
  std::shared_ptr<UnitSearch> search;
};

// A kind whose convolution engine forms its rows from contiguous channels declares
// `kConvLayout = ir::Layout::kNhwc`; the others are modelled on the import's NCHW.
template <class Kind>
constexpr ir::Layout conv_layout_of() {
  if constexpr (requires { Kind::kConvLayout; }) {
    return Kind::kConvLayout;
  } else {
    return ir::Layout::kNchw;
  }
}

// A kind whose cost model reads weights in a weight format (Op::weight_format) declares
// `kReadsWeightFormats = true`, one that reads a KV cache in its own type
// (AttentionAttrs::kv_dtype) `kReadsKvFormats = true`; the others do not run such ops, rather
// than price them as if stored in the op's type.
template <class Kind>
constexpr bool reads_weight_formats() {
  if constexpr (requires { Kind::kReadsWeightFormats; }) {
    return Kind::kReadsWeightFormats;
  } else {
    return false;
  }
}
template <class Kind>
constexpr bool reads_kv_formats() {
  if constexpr (requires { Kind::kReadsKvFormats; }) {
    return Kind::kReadsKvFormats;
  } else {
    return false;
  }
}

// A kind whose own model prices the format conversions of an op it runs in another type than
// the op's (reads the narrow operands as stored and widens them in its timing) declares
// `kPricesConversions = true`; for the others the adapter runs them as a conversion pass
// (archs/conversion_pass.h) at the kind's `conversions_per_cycle(params, stored, run)`: elements
// of type `stored` its converting resource widens to `run` (or narrows back) per cycle.
template <class Kind>
constexpr bool prices_conversions() {
  if constexpr (requires { Kind::kPricesConversions; }) {
    return Kind::kPricesConversions;
  } else {
    return false;
  }
}

template <class Kind>
class KindAdapter final : public UnitConfig {
 public:
  using Params = typename Kind::Params;

  // `description`: what each of the unit's keys resolved to (ResolvedKeys::json).
  KindAdapter(Params params, nlohmann::ordered_json description)
      : description_(std::move(description)) {
    unit_.params = std::move(params);
  }

  const std::string& name() const override { return unit_.params.name; }
  std::string kind() const override { return std::string(Kind::kName); }
  bool reads_storage_of(const ir::Op& op) const override {
    const auto* attention = std::get_if<ir::AttentionAttrs>(&op.attrs);
    return (!op.weight_format || reads_weight_formats<Kind>()) &&
           (attention == nullptr || !attention->kv_dtype || reads_kv_formats<Kind>());
  }
  std::optional<std::string> type_refusal(const ir::Op& op) const override {
    if constexpr (requires { Kind::type_refusal(unit_.params, op); }) {
      return Kind::type_refusal(unit_.params, op);
    } else {
      return std::nullopt;
    }
  }
  bool supports(const ir::Op& op) const override {
    if (!reads_storage_of(op) || type_refusal(op)) return false;
    if constexpr (std::invocable<decltype(Kind::supports), const Params&, const ir::Op&>) {
      return Kind::supports(unit_.params, op);
    } else {
      return Kind::supports(op);  // every unit of the kind runs the same ops
    }
  }
  sim::UnitFactory factory(double soc_clock_ghz) const override {
    sim::UnitFactory unit = Kind::factory(unit_, soc_clock_ghz);
    if constexpr (prices_conversions<Kind>()) {
      return unit;
    } else {
      return with_conversion_pass(std::move(unit), [params = unit_.params](const ir::Op& op) {
        return conversion_work(params, op);
      });
    }
  }
  nlohmann::ordered_json describe() const override { return description_; }
  ir::Layout preferred_conv_layout() const override { return conv_layout_of<Kind>(); }
  // A kind that computes only some types names `run_dtype`; the others compute the op's type,
  // or the unit's `dtype` where the op names none.
  ir::DType run_dtype(const ir::Op& op) const override { return run_dtype_of(unit_.params, op); }
  std::optional<sim::EnergyByAction> op_energy(const sim::OpResult& op,
                                               const sim::EnergyContext& context) const override {
    if constexpr (requires { Kind::activity_of; }) {
      // The activity the kind's model recorded in the op's mapping, read back typed and strictly.
      return with_conversion_energy(
          op, Kind::op_energy(unit_.params, op, Kind::activity_of(op), context), context);
    } else {
      return with_conversion_energy(op, Kind::op_energy(unit_.params, op, context), context);
    }
  }
  std::optional<double> area_mm2(const sim::TechTable& tech) const override {
    if constexpr (std::invocable<decltype(Kind::area_mm2), const Params&, const sim::TechTable&>) {
      return Kind::area_mm2(unit_.params, tech);
    } else {
      return Kind::area_mm2(unit_.params);  // areas from the kind's own published design
    }
  }
  std::optional<double> clocked_bits() const override {
    if constexpr (requires { Kind::clocked_bits(unit_.params); }) {
      return Kind::clocked_bits(unit_.params);
    } else {
      return std::nullopt;  // a kind whose model counts no clocked storage
    }
  }
  std::optional<double> estimate_seconds(const ir::Op& op, const MemoryContext& memory,
                                         double soc_clock_ghz) const override {
    if (!supports(op)) return std::nullopt;
    const OpSurroundings at = surroundings(memory, soc_clock_ghz);
    return with_conversion_seconds(op, Kind::estimate_seconds(unit_, op, at), at);
  }
  std::optional<MappingQuery> mapping_query(const ir::Op& op, const MemoryContext& memory,
                                            double soc_clock_ghz) const override {
    if (!supports(op)) return std::nullopt;
    return generic_query(Kind::mapping_query(unit_, op, surroundings(memory, soc_clock_ghz)));
  }
  // A kind whose ops share the unit over a program declares `ProgramShare` (what each op gets,
  // from `share_program`) and takes it in estimate_seconds and mapping_query.
  ProgramEstimates program_estimates(const std::vector<const ir::Op*>& program,
                                     const MemoryContext& memory,
                                     double soc_clock_ghz) const override {
    if constexpr (requires { typename Kind::ProgramShare; }) {
      // The surroundings are the program's, the same for every op: worked out once.
      const OpSurroundings at = surroundings(memory, soc_clock_ghz);
      auto share = std::make_shared<const typename Kind::ProgramShare>(
          Kind::share_program(unit_, program, at));
      return {[this, share, at](const ir::Op& op) -> std::optional<double> {
                if (!supports(op)) return std::nullopt;
                return with_conversion_seconds(op, Kind::estimate_seconds(unit_, op, at, *share),
                                               at);
              },
              [this, share, at](const ir::Op& op) -> std::optional<MappingQuery> {
                if (!supports(op)) return std::nullopt;
                return generic_query(Kind::mapping_query(unit_, op, at, *share));
              }};
    } else {
      return UnitConfig::program_estimates(program, memory, soc_clock_ghz);
    }
  }
  void use_soc_memory(const sim::DramSpec& dram, const sim::DramView& path) override {
    if constexpr (requires { Kind::bind_soc_memory(unit_.params, dram, path); }) {
      Kind::bind_soc_memory(unit_.params, dram, path);
    }
  }
  void use_mapping_search(std::shared_ptr<const mapping::SearchPolicy> policy) override {
    // The unit's description is part of every decision key: a decision never crosses units.
    unit_.search =
        std::make_shared<UnitSearch>(std::move(policy), describe().dump(), mapping_energy());
  }

  const Params& params() const { return unit_.params; }
  typename KindUnit<Kind>::State& state() const { return *unit_.state; }

 private:
  static ir::DType run_dtype_of(const Params& params, const ir::Op& op) {
    if constexpr (requires { Kind::run_dtype(params, op); }) {
      return Kind::run_dtype(params, op);
    } else {
      return op.dtype.value_or(params.dtype);
    }
  }
  // The op's estimate plus its conversions where the unit converts in a pass of its own.
  double with_conversion_seconds(const ir::Op& op, double op_seconds,
                                 const OpSurroundings& at) const {
    if constexpr (prices_conversions<Kind>()) {
      return op_seconds;
    } else {
      return op_seconds +
             static_cast<double>(conversion_work(unit_.params, op).cycles) / (at.clock_ghz * 1e9);
    }
  }
  // The conversions of `op` on a unit that converts in a pass of its own.
  static ConversionWork conversion_work(const Params& params, const ir::Op& op) {
    const ir::DType run = run_dtype_of(params, op);
    const int64_t elements = ir::converted_operands(op, run).total();
    if (elements == 0) return {run, 0, 0};
    // converted_operands counts elements only for an op that names its (narrow) type.
    return {run, elements,
            conversion_cycles(elements, Kind::conversions_per_cycle(params, *op.dtype, run))};
  }
  // The kind's energy of the op with its conversions priced as the "convert" action.
  static std::optional<sim::EnergyByAction> with_conversion_energy(
      const sim::OpResult& op, std::optional<sim::EnergyByAction> energy,
      const sim::EnergyContext& context) {
    if (!energy || op.converted_elements == 0) return energy;
    const std::optional<ir::DType> run = ir::parse_dtype(op.dtype);
    if (!run) throw_runtime({}, "op '" + op.name + "' converted elements without a run type");
    (*energy)["convert"] = static_cast<double>(op.converted_elements) *
                           context.tech.convert_pj(*run) * 1e-12;
    return energy;
  }

  OpSurroundings surroundings(const MemoryContext& memory, double soc_clock_ghz) const {
    const double clock_ghz = unit_clock_ghz(soc_clock_ghz);
    return {clock_ghz, memory, memory.view(clock_ghz), mapping_energy()};
  }
  // Kinds with a `clock_ghz` key run at it; the others (clocked by their DRAM or with timing in
  // seconds) ignore the clock and get the SoC's.
  double unit_clock_ghz(double soc_clock_ghz) const {
    if constexpr (requires { unit_.params.clock_ghz.value_or(1.0); }) {
      return unit_.params.clock_ghz.value_or(soc_clock_ghz);
    } else {
      return soc_clock_ghz;
    }
  }

  nlohmann::ordered_json description_;
  KindUnit<Kind> unit_;
};

// The registry's parser for a kind: reads the keys of one `units[]` entry through the kind's
// table into the adapter, with the unit's description made of the same reads.
template <class Kind>
std::unique_ptr<UnitConfig> parse_unit(MapReader& unit_reader, const std::string& name) {
  ResolvedKeys resolved;
  KeyReader unit(unit_reader, Kind::keys(), resolved);
  unit.note("name", name);
  unit.note("kind", std::string(Kind::kName));
  typename Kind::Params params = Kind::parse(unit, name);
  return std::make_unique<KindAdapter<Kind>>(std::move(params), resolved.json(Kind::keys()));
}

}  // namespace polyarch::archs
