// The pass registry: every pass by its name, the standard pipeline built from it, and the
// errors for names it does not know.
#include "compiler/passes/registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "tests/base/error_capture.h"

namespace polyarch::passes {
namespace {

using ::testing::HasSubstr;

TEST(PassRegistry, EachEntryMakesThePassOfItsName) {
  std::set<std::string> names;
  for (const PassEntry& entry : pass_registry()) {
    EXPECT_EQ(entry.make({})->name(), entry.name);
    EXPECT_FALSE(entry.description.empty()) << entry.name;
    EXPECT_TRUE(names.insert(std::string(entry.name)).second) << entry.name << " twice";
  }
  // The five fusion passes, CSE and the target passes included.
  for (const char* name :
       {"fold-conv-bn", "fuse-gelu", "fuse-norm", "fuse-attention", "fuse-bias-activation", "cse",
        "layout", "precision", "sparsity", "input-signs", "allow-unknown", "lower"}) {
    EXPECT_EQ(names.count(name), 1u) << name;
  }
  EXPECT_EQ(names.size(), 15u);
}

TEST(PassRegistry, TheStandardPipelineIsMadeOfRegisteredPassesInItsOrder) {
  lower::PipelineOptions options;
  options.allow_unknown = true;
  const std::vector<std::string> names = lower::standard_pass_names(options);
  ASSERT_EQ(names.size(), 15u);
  EXPECT_EQ(names.front(), "allow-unknown");
  EXPECT_EQ(names[1], "fold-constants");
  EXPECT_EQ(names.back(), "input-signs");
  EXPECT_EQ(lower::standard_pipeline(options).pass_names(), names);
  EXPECT_EQ(lower::standard_pass_names().front(), "fold-constants");
}

TEST(PassRegistry, APassListReadsInOrder) {
  EXPECT_EQ(parse_pass_list("dce,cse,fuse-gelu", "--passes"),
            (std::vector<std::string>{"dce", "cse", "fuse-gelu"}));
}

TEST(PassRegistry, AnUnknownNameIsBadInputWithASuggestionAndTheList) {
  const std::optional<Error> error =
      testing::capture_error([] { parse_pass_list("dce,fuse-gelo", "--passes"); });
  ASSERT_TRUE(error);
  EXPECT_EQ(error->kind(), ErrorKind::kBadInput);
  EXPECT_THAT(error->what(), HasSubstr("--passes: no pass named 'fuse-gelo'"));
  EXPECT_THAT(error->what(), HasSubstr("did you mean 'fuse-gelu'?"));
  EXPECT_THAT(error->what(), HasSubstr("fuse-attention"));
  EXPECT_THAT(testing::error_text([] { parse_pass_list("dce,,cse", "--passes"); }),
              HasSubstr("an empty pass name"));
}

TEST(PassRegistry, HelpHasOneLinePerPass) {
  const std::string help = pass_registry_help();
  EXPECT_EQ(std::count(help.begin(), help.end(), '\n'),
            static_cast<std::ptrdiff_t>(pass_registry().size()));
  EXPECT_THAT(help, HasSubstr("  fuse-bias-activation  "));
}

}  // namespace
}  // namespace polyarch::passes
