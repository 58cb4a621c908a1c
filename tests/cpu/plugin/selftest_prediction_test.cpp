// The model at every self-test kernel's trigger (kernels/selftest/adapter/selftest_triggers.cpp, from
// docs/BUG-CLASSES.md): the failing variant is predicted safe one step below the trigger and
// failing exactly at it, the bisection over the trigger's range lands on it, and the fixed twin is
// never predicted to fail, at the trigger or at any random shape.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <set>

#include "gridfuzz/predictor.hpp"
#include "gridfuzz/registry.hpp"
#include "gridfuzz/core/model_profiles.hpp"
#include "gridfuzz/search/strategies.hpp"
#include "gridfuzz/search/sweep_plan.hpp"
#include "selftest_kernels.hpp"
#include "selftest_triggers.hpp"

using namespace gridfuzz;

namespace {

const DeviceLimits kH200 = *device_preset("sm_90");

const Registry& selftests() {
  static Registry r = [] {
    Registry reg;
    selftest::register_kernels(reg);
    return reg;
  }();
  return r;
}

Params params_at(const Kernel& k, const selftest::Trigger& t, std::int64_t value) {
  Params p = Params::defaults(k.axes());
  for (const auto& [axis, v] : t.fixed_axes) p.set(axis, v);
  p.set(t.axis, std::to_string(value));
  return p;
}

Prediction predict_at(const Kernel& k, const std::string& variant, const Params& p) {
  return predict(k.plan(p, variant, kH200), kH200);
}

// "refuse:<rule>", "wrap:<index>" or "none", in the Trigger's vocabulary.
std::string model_says(const Prediction& p) {
  if (!p.accepted()) return p.outcome;
  if (p.index_wrap() != "safe") return p.index_wrap();
  return "none";
}

bool fails(const Prediction& p) { return !p.accepted() || p.index_wrap() != "safe"; }

class SelftestTrigger : public ::testing::TestWithParam<selftest::Trigger> {};

std::string trigger_name(const ::testing::TestParamInfo<selftest::Trigger>& info) {
  std::string n = info.param.kernel.substr(9) + "_" + info.param.variant + "_" + std::to_string(info.param.first_bad);
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

}  // namespace

TEST(SelftestCatalogue, EveryBugClassHasAKernelWithAFixedTwin) {
  std::set<std::string> classes;
  for (const auto& t : selftest::triggers()) {
    classes.insert(t.bug_class);
    const auto k = selftests().find(t.kernel);
    ASSERT_TRUE(k) << t.kernel;
    const auto v = k->variants();
    EXPECT_NE(std::find(v.begin(), v.end(), "fixed"), v.end()) << t.kernel;
  }
  EXPECT_EQ(classes, (std::set<std::string>{"B.1", "B.2", "B.3", "B.4", "B.5", "B.6", "B.7", "B.8", "B.9"}));
  // The ten kernels of the bug classes, and selftest.race (a race, for the self-check: no trigger).
  EXPECT_EQ(selftests().all().size(), 11u);
}

TEST_P(SelftestTrigger, ModelFailsExactlyAtTheTrigger) {
  const selftest::Trigger& t = GetParam();
  const auto k = selftests().find(t.kernel);
  ASSERT_TRUE(k);
  const Prediction at = predict_at(*k, t.variant, params_at(*k, t, t.first_bad));
  EXPECT_EQ(model_says(at), t.predicted) << at.detail;
  if (t.is_point()) return;
  const Prediction below = predict_at(*k, t.variant, params_at(*k, t, t.first_bad - 1));
  EXPECT_EQ(model_says(below), "none") << below.detail;
  if (t.predicted == "none") return;  // the model cannot see this bug: the oracle must
  const BisectResult b = bisect_first_bad(t.search_lo, t.search_hi, 1, [&](std::int64_t v) {
    return fails(predict_at(*k, t.variant, params_at(*k, t, v)));
  });
  EXPECT_EQ(b.first_bad, t.first_bad);
}

TEST_P(SelftestTrigger, FixedTwinIsSafeAtTheTrigger) {
  const selftest::Trigger& t = GetParam();
  const auto k = selftests().find(t.kernel);
  ASSERT_TRUE(k);
  for (std::int64_t v : {t.search_lo, t.first_bad, t.search_hi}) {
    const Prediction p = predict_at(*k, "fixed", params_at(*k, t, v));
    EXPECT_FALSE(fails(p)) << t.kernel << " fixed at " << t.axis << "=" << v << ": " << p.detail << " " << p.index_wrap();
  }
}

INSTANTIATE_TEST_SUITE_P(AllClasses, SelftestTrigger, ::testing::ValuesIn(selftest::triggers()), trigger_name);

RC_GTEST_PROP(SelftestFixedTwins, NeverPredictedToFailAnywhere, ()) {
  const auto all = selftests().all();
  const auto& k = *rc::gen::elementOf(all).as("kernel");
  Params p = Params::defaults(k->axes());
  for (const AxisSpec& a : k->axes()) {
    if (a.is_choice()) continue;
    p.set(a.name, std::to_string(*rc::gen::inRange<std::int64_t>(a.min, a.max + 1)));
  }
  RC_PRE(!k->check(p));
  const Prediction pred = predict_at(*k, "fixed", p);
  RC_ASSERT(!fails(pred));
}

// Issue 30: the plan a sweep makes with no directions (every start shape, every tier) holds, for
// every bug class, a case where its kernel fails: one the model predicts failing with the
// trigger's rule, or, for the class the model cannot see (dropped rows: grid.y clamped to 65535
// whatever the columns), one past the trigger on its axis.
TEST(SelftestUndirectedPlan, HoldsACaseInEveryClassFailingRegion) {
  std::vector<const Kernel*> kernels;
  for (const auto& k : selftests().all()) kernels.push_back(k.get());
  SweepPlanOptions options;
  for (const ModelProfile& m : model_profiles()) options.profiles.push_back(&m);
  const SweepPlan plan = plan_sweep(kernels, kH200, options);
  for (const selftest::Trigger& t : selftest::triggers()) {
    const auto target = std::find_if(plan.targets.begin(), plan.targets.end(), [&](const SweepTarget& s) {
      return s.kernel->name() == t.kernel && s.variant == t.variant;
    });
    ASSERT_NE(target, plan.targets.end()) << t.kernel << " " << t.variant;
    bool found = false;
    for (const Case& c : target->boundary_cases) {
      if (t.predicted == "none") {
        found = c.params.get_int(t.axis) >= t.first_bad;
      } else {
        found = model_says(predict_at(*target->kernel, t.variant, c.params)) == t.predicted;
      }
      if (found) break;
    }
    EXPECT_TRUE(found) << t.bug_class << " " << t.kernel << "/" << t.variant << ": no planned case where it fails ("
                       << t.predicted << " at " << t.axis << "=" << t.first_bad << "); "
                       << target->boundary_cases.size() << " cases planned";
  }
}
