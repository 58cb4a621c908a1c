// The plan keeps the cheapest copies of a repeated crossing; a variant the model predicts the
// same for across another's boundary runs where that twin is first broken; a variant failing on
// both sides of a crossing runs none of its points (docs/MODELS.md, "Repeated crossings").
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>

#include "gridfuzz/search/repeated_crossings.hpp"
#include "gridfuzz/search/sweep_plan.hpp"
#include "host_only_case.hpp"

using namespace gridfuzz;

TEST(RepeatedCrossings, KeepsTheCheapestCopiesOfEachKeyAndEveryOneThatMustStay) {
  const std::vector<CrossingCopy> copies{
      {"a", 30, 2, false}, {"a", 10, 2, false}, {"a", 20, 2, false}, {"a", 5, 2, false},  // two cheapest of a
      {"b", 50, 1, true},  {"b", 1, 1, false},                                         // b's defaults copy counts
      {"c", 7, 1, false},                                                              // alone: kept
      {"d", 9, 1, true},   {"d", 8, 1, true}};                                         // always, both
  EXPECT_EQ(repeated_crossings(copies), (std::vector<bool>{true, false, true, false, false, true, false, false, false}));
}

TEST(RepeatedCrossings, EqualCostsKeepTheFirstGiven) {
  EXPECT_EQ(repeated_crossings({{"k", 4, 1, false}, {"k", 4, 1, false}, {"k", 4, 1, false}}),
            (std::vector<bool>{false, true, true}));
}

namespace {

// A call over `tokens` (grid.x), with variants whose host code or indices break at known token
// counts and nowhere near a power of two (so no size crossing of the call falls on them):
//   periodic:      grid.x = int32(tokens * 40960): a launch refused while that product is negative,
//                  from 52429 tokens (2^31 / 40960 = 52428.8) to 104857, again from 157287, ...
//   periodic_wrap: the same, and an int32 index tokens * 30000 - 1 that wraps from 71583 tokens on,
//                  inside the first refusal
//   fixed:         grid.x = tokens, nothing that breaks
//   wraps_early:   grid.x = tokens, an int32 index tokens * 65536 - 1 that wraps from 32769 tokens on
// Its only buffer is small and fixed: every case is cheap, and planned at every point.
class PeriodicCase final : public test::HostOnlyCase {
 public:
  PeriodicCase(std::uint64_t tokens, std::string variant) : tokens_(tokens), variant_(std::move(variant)) {}
  LaunchPlan plan(const DeviceLimits&) const override {
    LaunchPlan plan;
    std::uint64_t grid_x = tokens_;
    if (variant_.starts_with("periodic")) {
      const auto product = static_cast<std::int32_t>(static_cast<std::uint32_t>(tokens_ * 40960));
      grid_x = product < 0 ? static_cast<std::uint32_t>(product) : static_cast<std::uint64_t>(product) / 40960 + 1;
    }
    LaunchSpec launch;
    launch.name = "k_" + variant_;
    launch.grid = {grid_x, 1, 1};
    launch.block = {64, 1, 1};
    plan.launches.push_back(launch);
    if (variant_ == "periodic_wrap")
      plan.indices.push_back({"slow_index", static_cast<u128>(tokens_) * 30000 - 1, IndexType::int32});
    if (variant_ == "wraps_early")
      plan.indices.push_back({"early_index", static_cast<u128>(tokens_) * 65536 - 1, IndexType::int32});
    return plan;
  }
  std::vector<BufferSpec> buffers() const override { return {{"out", BufferRole::output, ElementType::f32, 1024}}; }

 private:
  std::uint64_t tokens_;
  std::string variant_;
};

class PeriodicKernel final : public Kernel {
 public:
  std::string name() const override { return "test.periodic"; }
  std::vector<std::string> variants() const override { return {"periodic", "periodic_wrap", "fixed", "wraps_early"}; }
  std::vector<AxisSpec> axes() const override { return {{"tokens", "tokens", "16", {}, 1, 1 << 20, 1}}; }
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    return std::make_unique<PeriodicCase>(p.get_u64("tokens"), variant);
  }
};

// The token counts each variant runs, of those in [lo, hi].
std::set<std::uint64_t> tokens_run(const SweepPlan& plan, const std::string& variant, std::uint64_t lo, std::uint64_t hi) {
  std::set<std::uint64_t> out;
  for (const SweepTarget& t : plan.targets)
    if (t.variant == variant)
      for (const Case& c : t.boundary_cases)
        if (const std::uint64_t v = c.params.get_u64("tokens"); v >= lo && v <= hi) out.insert(v);
  return out;
}

const DeviceLimits kSm90 = *device_preset("sm_90");
// Every crossing as often as it is found, at every point, for every variant.
SweepPlanOptions as_found() {
  SweepPlanOptions o;
  o.repeated_size_crossings = 0;
  return o;
}

}  // namespace

TEST(RepeatedCrossings, AModelBoundaryThatRecursAlongItsAxisIsPlannedWhereItFirstOccurs) {
  const PeriodicKernel k;
  const SweepPlan plan = plan_sweep({&k}, kSm90);
  EXPECT_EQ(tokens_run(plan, "periodic", 52427, 52431), (std::set<std::uint64_t>{52427, 52428, 52429, 52430, 52431}));
  EXPECT_EQ(tokens_run(plan, "periodic", 104856, 104860), (std::set<std::uint64_t>{104856, 104857, 104858, 104859, 104860}))
      << "where it turns good again, first";
  EXPECT_TRUE(tokens_run(plan, "periodic", 157285, 157289).empty()) << "the same refusal, a period on";
  // (209718 is the last value below a size crossing of its own: 2^8 threads from 209719 on.)
  EXPECT_TRUE(tokens_run(plan, "periodic", 209714, 209717).empty()) << "the same return, a period on";
  bool noted = false;
  for (const std::string& n : plan.notes) noted = noted || n.find("repeated crossing(s) left out") != std::string::npos;
  EXPECT_TRUE(noted);
  // As found, every period is planned.
  const SweepPlan all = plan_sweep({&k}, kSm90, as_found());
  EXPECT_EQ(tokens_run(all, "periodic", 157285, 157289).size(), 5u);
}

TEST(RepeatedCrossings, AVariantSteadyAcrossItsTwinsBoundaryRunsWhereTheTwinIsFirstBroken) {
  const PeriodicKernel k;
  // fixed is predicted the same at every point of periodic's boundaries: it runs at the first
  // refused point, and at the last refused one where the refusal ends.
  const SweepPlan plan = plan_sweep({&k}, kSm90);
  EXPECT_EQ(tokens_run(plan, "fixed", 52427, 52431), (std::set<std::uint64_t>{52429}));
  EXPECT_EQ(tokens_run(plan, "fixed", 104856, 104860), (std::set<std::uint64_t>{104857}));
  const SweepPlan all = plan_sweep({&k}, kSm90, as_found());
  EXPECT_EQ(tokens_run(all, "fixed", 52427, 52431).size(), 5u);
}

TEST(RepeatedCrossings, AVariantFailingOnBothSidesRunsNoneOfTheCrossingsPoints) {
  const PeriodicKernel k;
  const SweepPlan plan = plan_sweep({&k}, kSm90);
  // wraps_early's index wraps from 32769 tokens: at periodic's boundary it fails either side.
  EXPECT_TRUE(tokens_run(plan, "wraps_early", 52427, 52431).empty());
  EXPECT_EQ(tokens_run(plan, "wraps_early", 32767, 32771), (std::set<std::uint64_t>{32767, 32768, 32769, 32770, 32771}))
      << "its own boundary, where it starts to fail";
  const SweepPlan all = plan_sweep({&k}, kSm90, as_found());
  EXPECT_EQ(tokens_run(all, "wraps_early", 52427, 52431).size(), 5u);
}

TEST(RepeatedCrossings, ABoundaryInsideARefusalIsRunByNoVariant) {
  const PeriodicKernel k;
  // periodic_wrap's index starts to wrap at 71583 tokens, where its launch is refused anyway: the
  // wrap cannot show, and the variants steady across it have nothing to be proven against.
  const SweepPlan plan = plan_sweep({&k}, kSm90);
  for (const char* variant : {"periodic", "periodic_wrap", "fixed", "wraps_early"})
    EXPECT_TRUE(tokens_run(plan, variant, 71581, 71585).empty()) << variant;
  const SweepPlan all = plan_sweep({&k}, kSm90, as_found());
  EXPECT_EQ(tokens_run(all, "fixed", 71581, 71585).size(), 5u);
}
