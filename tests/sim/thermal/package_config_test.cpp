#include "sim/thermal/package_config.h"

#include <gtest/gtest.h>

#include <string>

#include "base/error.h"
#include "tests/sim/thermal/thermal_test_support.h"
#include "tests/support/scratch_dir_test.h"

namespace polyarch::sim::thermal {
namespace {

std::string parse_error(const std::string& text) {
  return test::bad_input_message(
      [&] { parse_package_config(*parse_config_text(text, "t.yaml").find("thermal")); });
}

PackageConfig parse(const std::string& text) {
  return parse_package_config(*parse_config_text(text, "t.yaml").find("thermal"));
}

void expect_same_layer(const MaterialLayer& a, const MaterialLayer& b, const std::string& what) {
  EXPECT_DOUBLE_EQ(a.thickness_m, b.thickness_m) << what;
  EXPECT_DOUBLE_EQ(a.conductivity, b.conductivity) << what;
  EXPECT_DOUBLE_EQ(a.volumetric_heat_capacity, b.volumetric_heat_capacity) << what;
}

void expect_same(const PackageConfig& a, const PackageConfig& b) {
  EXPECT_DOUBLE_EQ(a.ambient_k, b.ambient_k);
  EXPECT_DOUBLE_EQ(a.sampling_interval_s, b.sampling_interval_s);
  expect_same_layer(a.die, b.die, "die");
  expect_same_layer(a.tim, b.tim, "tim");
  expect_same_layer(a.spreader, b.spreader, "spreader");
  expect_same_layer(a.sink, b.sink, "sink");
  EXPECT_DOUBLE_EQ(a.spreader.side_m, b.spreader.side_m);
  EXPECT_DOUBLE_EQ(a.sink.side_m, b.sink.side_m);
  EXPECT_DOUBLE_EQ(a.convection.r_k_per_w, b.convection.r_k_per_w);
  EXPECT_DOUBLE_EQ(a.convection.c_j_per_k, b.convection.c_j_per_k);
}

TEST(ThermalPackageConfig, DefaultsAreHotSpotsAsListedInIssue11) {
  expect_same(PackageConfig{}, parse(R"(thermal:
  ambient_k: 318.15
  sampling_interval_s: 0.00333
  die:      {thickness_m: 0.00015, conductivity: 130.0, volumetric_heat_capacity: 1630300}
  tim:      {thickness_m: 2.0e-5,  conductivity: 4.0,   volumetric_heat_capacity: 4.0e6}
  spreader: {side_m: 0.03, thickness_m: 0.001,  conductivity: 400.0, volumetric_heat_capacity: 3.55e6}
  sink:     {side_m: 0.06, thickness_m: 0.0069, conductivity: 400.0, volumetric_heat_capacity: 3.55e6}
  convection: {r_k_per_w: 0.1, c_j_per_k: 140.4}
)"));
}

TEST(ThermalPackageConfig, GivenKeysOverrideDefaultsOthersStay) {
  PackageConfig expected;
  expected.ambient_k = 300.0;
  expected.die.conductivity = 100.0;
  expected.sink.side_m = 0.08;
  expected.convection.r_k_per_w = 0.25;
  expect_same(expected, parse(R"(thermal:
  ambient_k: 300
  die: {conductivity: 100.0}
  sink: {side_m: 0.08}
  convection: {r_k_per_w: 0.25}
)"));
}

TEST(ThermalPackageConfig, UnknownKeyIsReportedAtItsLineWithSuggestion) {
  const std::string message = parse_error("thermal:\n  die: {thicknes_m: 0.001}\n");
  EXPECT_NE(message.find("t.yaml:2:"), std::string::npos) << message;
  EXPECT_NE(message.find("did you mean 'thickness_m'"), std::string::npos) << message;
}

TEST(ThermalPackageConfig, NonPositiveAndNonNumericValuesAreRejected) {
  EXPECT_NE(parse_error("thermal:\n  tim: {conductivity: 0}\n").find("must be > 0"),
            std::string::npos);
  EXPECT_NE(parse_error("thermal:\n  ambient_k: warm\n").find("expected a number"),
            std::string::npos);
}

TEST(ThermalPackageConfig, ModelKeysPickTheGridAndItsSizeDefaultingToHotSpots) {
  const PackageConfig defaults = parse("thermal:\n  ambient_k: 300\n");
  EXPECT_EQ(defaults.model.kind, ThermalModelKind::kBlock);
  EXPECT_EQ(defaults.model.grid_rows, 64);
  EXPECT_EQ(defaults.model.grid_cols, 64);
  const PackageConfig grid = parse("thermal:\n  model: grid\n  grid_rows: 32\n  grid_cols: 48\n");
  EXPECT_EQ(grid.model.kind, ThermalModelKind::kGrid);
  EXPECT_EQ(grid.model.grid_rows, 32);
  EXPECT_EQ(grid.model.grid_cols, 48);
  EXPECT_NE(parse_error("thermal:\n  model: mesh\n").find("t.yaml:2:"), std::string::npos);
  EXPECT_NE(parse_error("thermal:\n  grid_rows: 0\n").find("t.yaml:2:"), std::string::npos);
  const std::string too_many = parse_error("thermal:\n  grid_rows: 512\n  grid_cols: 512\n");
  EXPECT_NE(too_many.find("t.yaml:2:"), std::string::npos) << too_many;
  EXPECT_NE(too_many.find("at most"), std::string::npos) << too_many;
}

TEST(ThermalPackageConfig, SpreaderWiderThanSinkIsRejected) {
  const std::string message =
      parse_error("thermal:\n  spreader: {side_m: 0.07}\n  sink: {side_m: 0.06}\n");
  EXPECT_NE(message.find("t.yaml:2:"), std::string::npos) << message;
  EXPECT_NE(message.find("wider than the sink"), std::string::npos) << message;
}

class ThermalPackageConfigFile : public test_support::ScratchDirTest {};

TEST_F(ThermalPackageConfigFile, FileWithOnlyAThermalSectionLoads) {
  write("t.yaml", "thermal:\n  sampling_interval_s: 0.001\n");
  EXPECT_DOUBLE_EQ(load_package_config(path("t.yaml")).sampling_interval_s, 0.001);
  write("empty_section.yaml", "thermal:\n");
  EXPECT_DOUBLE_EQ(load_package_config(path("empty_section.yaml")).ambient_k, 318.15);
}

TEST_F(ThermalPackageConfigFile, FileWithoutThermalSectionIsBadInput) {
  write("t.yaml", "name: x\n");
  try {
    load_package_config(path("t.yaml"));
    FAIL() << "expected an error";
  } catch (const Error& error) {
    EXPECT_EQ(error.kind(), ErrorKind::kBadInput);
    EXPECT_NE(std::string(error.what()).find("no `thermal:` section"), std::string::npos);
  }
}

}  // namespace
}  // namespace polyarch::sim::thermal
