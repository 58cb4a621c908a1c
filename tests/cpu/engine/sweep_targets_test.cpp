// Where the sweep aims: the model-blind size crossings (from declared buffers and launches alone),
// the model profiles, and the plan that runs every variant at every boundary of any variant.
#include <gtest/gtest.h>

#include <chrono>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <bit>
#include <map>
#include <set>
#include <stdexcept>

#include "gridfuzz/core/model_profiles.hpp"
#include "gridfuzz/search/size_crossings.hpp"
#include "gridfuzz/app/model_option.hpp"
#include "gridfuzz/app/parse.hpp"
#include "gridfuzz/app/session.hpp"
#include "gridfuzz/search/sweep_plan.hpp"
#include "host_only_case.hpp"

using namespace gridfuzz;

namespace {

// One case of SizedKernel: host-only (the device side is never asked for).
class SizedCase final : public test::HostOnlyCase {
 public:
  SizedCase(std::uint64_t n, std::uint64_t per_n, ElementType type) : n_(n), per_n_(per_n), type_(type) {}
  LaunchPlan plan(const DeviceLimits&) const override {
    LaunchPlan plan;
    plan.launches.push_back({"k", {(n_ + 255) / 256, 1, 1}, {256, 1, 1}});
    return plan;
  }
  std::vector<BufferSpec> buffers() const override { return {{"data", BufferRole::output, type_, n_ * per_n_}}; }

 private:
  std::uint64_t n_, per_n_;
  ElementType type_;
};

// A host-only kernel whose one buffer holds n * per_n elements of `type`, launched as one
// 1-D grid of ceil(n/256) blocks of 256 threads: what a plugin declares, with no index ranges.
class SizedKernel : public Kernel {
 public:
  SizedKernel(std::uint64_t per_n, ElementType type) : per_n_(per_n), type_(type) {}
  std::string name() const override { return "test.sized"; }
  std::string description() const override { return "one buffer of n*per_n elements"; }
  std::vector<std::string> variants() const override { return {"only"}; }
  std::vector<AxisSpec> axes() const override { return {{"n", "elements / per_n", "1", {}, 1, 1ll << 40, 1}}; }
  std::optional<std::string> check(const Params&) const override { return std::nullopt; }
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string&) const override {
    return std::make_unique<SizedCase>(p.get_u64("n"), per_n_, type_);
  }

 private:
  std::uint64_t per_n_;
  ElementType type_;
};

// A plugin's kernel with a bug nothing declares: a uint16 index formed from rows * cols (one per
// pair), over a buffer of rows*cols*64 elements and a grid of `rows` blocks, so neither a buffer
// nor a launch size crosses 2^16 where the index does (issue 30).
class PairCase final : public test::HostOnlyCase {
 public:
  PairCase(std::uint64_t rows, std::uint64_t cols) : rows_(rows), cols_(cols) {}
  LaunchPlan plan(const DeviceLimits&) const override {
    LaunchPlan plan;
    plan.launches.push_back({"k", {rows_, 1, 1}, {64, 1, 1}});
    return plan;
  }
  std::vector<BufferSpec> buffers() const override {
    return {{"data", BufferRole::output, ElementType::f32, rows_ * cols_ * 64}};
  }

 private:
  std::uint64_t rows_, cols_;
};

class PairKernel : public Kernel {
 public:
  std::string name() const override { return "test.pair_u16"; }
  std::string description() const override { return "a uint16 index over rows * cols"; }
  std::vector<std::string> variants() const override { return {"legacy", "fixed"}; }
  std::vector<AxisSpec> axes() const override {
    return {{"rows", "rows", "100", {}, 1, 1 << 20, 1}, {"cols", "cols", "300", {}, 1, 1 << 20, 1}};
  }
  std::optional<std::string> check(const Params&) const override { return std::nullopt; }
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string&) const override {
    return std::make_unique<PairCase>(p.get_u64("rows"), p.get_u64("cols"));
  }
};

std::optional<std::int64_t> crossing(const std::vector<ModelBoundary>& found, const std::string& rule) {
  for (const auto& b : found)
    if (b.rule == rule && b.becomes_bad) return b.first_bad;
  return std::nullopt;
}

std::int64_t ceil_div_i(std::uint64_t a, std::uint64_t b) { return static_cast<std::int64_t>((a + b - 1) / b); }

}  // namespace

// The crossing of every declared size is the exact first n at which it reaches each width's
// threshold (2^8 ... 2^32).
RC_GTEST_PROP(SizeCrossings, AreTheExactFirstValuesAtEachThreshold, ()) {
  const std::uint64_t per_n = *rc::gen::inRange<std::uint64_t>(1, 5000);
  const ElementType type = *rc::gen::element(ElementType::u8, ElementType::f16, ElementType::f32);
  SizedKernel k(per_n, type);
  const auto found = size_crossings(k, "only", Params::defaults(k.axes()), *device_preset("sm_90"));
  const std::uint64_t eb = element_bytes(type);
  for (const std::uint64_t t : kSizeThresholds) {
    const std::string power = "2^" + std::to_string(std::countr_zero(t));
    RC_ASSERT(crossing(found, "size:buffer data elements >= " + power) == ceil_div_i(t, per_n));
    // Byte sizes are byte offsets: watched at the 32-bit widths only.
    if (t >= (1ull << 31)) {
      RC_ASSERT(crossing(found, "size:buffer data bytes >= " + power) == ceil_div_i(t, per_n * eb));
    } else {
      RC_ASSERT(!crossing(found, "size:buffer data bytes >= " + power));
    }
    // Threads: ceil(n/256)*256 >= t  <=>  n > t - 256.
    RC_ASSERT(crossing(found, "size:launch threads >= " + power) == static_cast<std::int64_t>(t - 255));
    RC_ASSERT(crossing(found, "size:launch threads.x >= " + power) == static_cast<std::int64_t>(t - 255));
  }
}

TEST(ModelProfiles, NamedOnceEachWithASourceAndTheShapesTheyClaim) {
  std::set<std::string> names;
  for (const ModelProfile& m : model_profiles()) {
    EXPECT_TRUE(names.insert(m.name).second) << m.name;
    EXPECT_FALSE(m.source.empty()) << m.name;
    EXPECT_GT(m.hidden, 0u);
    EXPECT_GT(m.vocab, 0u);
    EXPECT_EQ(m.is_moe(), m.top_k > 0 && m.expert_intermediate > 0) << m.name;
  }
  for (const char* required : {"llama3-8b", "llama3-70b", "qwen3-30b-a3b", "qwen3-235b-a22b", "gemma-3-27b",
                               "gemma-4-26b-a4b", "deepseek-v3", "mixtral-8x7b", "gpt-oss-120b"})
    EXPECT_TRUE(find_model_profile(required)) << required;
  const auto deepseek = profile_shapes(*find_model_profile("deepseek-v3"));
  const auto gate_up = std::find_if(deepseek.begin(), deepseek.end(), [](const auto& s) { return s.role == "moe.gate_up"; });
  ASSERT_NE(gate_up, deepseek.end());
  EXPECT_EQ(gate_up->values.at("rows"), "4096");  // 2 x moe_intermediate_size 2048, fused
  EXPECT_EQ(gate_up->values.at("cols"), "7168");
  EXPECT_EQ(gate_up->values.at("experts"), "256");
}

TEST(ModelProfiles, EachKernelTakesTheShapesItsAxesName) {
  const auto& registry = app::builtin_registry();
  const ModelProfile& qwen = *find_model_profile("qwen3-235b-a22b");
  auto roles = [&](const std::string& kernel) {
    std::set<std::string> out;
    for (const auto& s : shapes_for_axes(qwen, registry.find(kernel)->axes())) out.insert(s.role);
    return out;
  };
  EXPECT_EQ(roles("gguf.moe_vec"), (std::set<std::string>{"moe.gate_up", "moe.down"}));
  EXPECT_EQ(roles("affine.qmm"), (std::set<std::string>{"lm_head"}));
  EXPECT_EQ(roles("gguf.mmvq"), (std::set<std::string>{"ffn.up", "ffn.down"}));
  const auto down = app::model_starts(*registry.find("gguf.moe_vec"), {&qwen});
  ASSERT_EQ(down.size(), 2u);
  EXPECT_EQ(down[1].params.get("proj"), "down");
  EXPECT_EQ(down[1].params.get("rows"), "4096");
  EXPECT_EQ(down[1].params.get("cols"), "1536");
  EXPECT_THROW(app::parse_models("llama3-8b,no-such-model"), app::UsageError);
  EXPECT_EQ(app::parse_models("all").size(), model_profiles().size());
  EXPECT_TRUE(app::parse_models("none").empty());
}

namespace {

// The static default plan of the built-in kernels on sm_90, computed once.
const SweepPlan& default_plan() {
  static const SweepPlan plan = [] {
    std::vector<const Kernel*> kernels;
    for (const auto& k : app::builtin_registry().all()) kernels.push_back(k.get());
    return plan_sweep(kernels, *device_preset("sm_90"), {.profiles = app::parse_models("all")});
  }();
  return plan;
}

bool planned(const std::string& kernel, const std::string& variant, const std::map<std::string, std::string>& values) {
  for (const auto& t : default_plan().targets) {
    if (t.kernel->name() != kernel || t.variant != variant) continue;
    for (const Case& c : t.boundary_cases)
      if (std::all_of(values.begin(), values.end(), [&](const auto& kv) { return c.params.get(kv.first) == kv.second; }))
        return true;
  }
  return false;
}

}  // namespace

// The seed's headline cases are in the default sweep for every variant, not only where the
// legacy twin's model predicts them.
TEST(SweepPlan, RunsEveryVariantAtTheHeadlineBoundaries) {
  for (const char* variant : {"legacy", "fixed"}) {
    EXPECT_TRUE(planned("affine.qmm", variant, {{"tokens", "16744"}, {"vocab", "128256"}})) << variant;
    EXPECT_TRUE(planned("affine.qmm", variant, {{"tokens", "14135"}, {"vocab", "151936"}})) << variant;
    EXPECT_TRUE(planned("affine.qmm", variant, {{"tokens", "8192"}, {"vocab", "262144"}})) << variant;
    EXPECT_TRUE(planned("gguf.moe_vec", variant, {{"tokens", "8192"}, {"top_k", "8"}, {"quant", "q4_0"}})) << variant;
  }
}

// Where the LM head's output (tokens x vocab, 2-byte elements) crosses 2^31 bytes: a size no
// index declaration has to name. As found, it is planned for each profile's vocab; by default, as
// a repeated crossing, for the defaults' vocab and the cheapest profiles' only (the same size of
// the same call crossing the same width: docs/MODELS.md, "Repeated crossings").
TEST(SweepPlan, ReachesTheOutputByteCrossingForEveryProfileVocab) {
  const Kernel& qmm = *app::builtin_registry().find("affine.qmm");
  SweepPlanOptions every_repeat;
  every_repeat.profiles = app::parse_models("all");
  every_repeat.repeated_size_crossings = 0;
  const SweepPlan as_found = plan_sweep({&qmm}, *device_preset("sm_90"), every_repeat);
  const auto planned_in = [&](const SweepPlan& plan, const std::string& variant, std::uint64_t vocab) {
    const std::uint64_t tokens = ((1ull << 31) + 2 * vocab - 1) / (2 * vocab);
    for (const auto& t : plan.targets)
      if (t.kernel->name() == "affine.qmm" && t.variant == variant)
        for (const Case& c : t.boundary_cases)
          if (c.params.get("tokens") == std::to_string(tokens) && c.params.get("vocab") == std::to_string(vocab) &&
              c.params.get("dtype") == "bf16")
            return true;
    return false;
  };
  std::map<std::string, int> profiles_planned;  // by variant, in the default plan
  for (const ModelProfile& m : model_profiles()) {
    const Params shape = apply_shape(shapes_for_axes(m, qmm.axes()).front(), Params::defaults(qmm.axes()), qmm.axes());
    if (qmm.check(shape) || Params::validate(shape, qmm.axes())) {
      // A vocab the kernel cannot take (gemma-3's 262208 is no multiple of 128): left out, and said.
      const auto& notes = default_plan().notes;
      EXPECT_TRUE(std::any_of(notes.begin(), notes.end(), [&](const std::string& n) {
        return n.find("affine.qmm: model shape " + m.name + ":lm_head left out") != std::string::npos;
      })) << m.name;
      continue;
    }
    for (const char* variant : {"legacy", "fixed"}) {
      EXPECT_TRUE(planned_in(as_found, variant, m.vocab)) << m.name << " " << variant;
      profiles_planned[variant] += planned_in(default_plan(), variant, m.vocab);
    }
  }
  const std::uint64_t default_vocab = Params::defaults(qmm.axes()).get_u64("vocab");
  for (const char* variant : {"legacy", "fixed"}) {
    EXPECT_TRUE(planned_in(default_plan(), variant, default_vocab)) << variant;
    EXPECT_GE(profiles_planned[variant], 1) << variant;
  }
}

TEST(SweepPlan, VariantFilterKeepsTheOtherVariantsBoundaries) {
  const Kernel& k = *app::builtin_registry().find("gguf.moe_vec");
  const auto plan = plan_sweep({&k}, *device_preset("sm_90"), {.profiles = {}, .variants = {"fixed"}});
  ASSERT_EQ(plan.targets.size(), 1u);
  EXPECT_EQ(plan.targets[0].variant, "fixed");
  bool at_legacy_boundary = false;
  for (const Case& c : plan.targets[0].boundary_cases)
    at_legacy_boundary |= c.params.get("tokens") == "8192" && c.params.get("top_k") == "8";
  EXPECT_TRUE(at_legacy_boundary) << "fixed must run where legacy is refused";
}

// Shapes larger than the device are left out, counted and said; nothing else is.
TEST(SweepPlan, LeavesOutOnlyWhatDoesNotFitAndSaysSo) {
  DeviceLimits small = *device_preset("sm_90");
  small.total_mem_bytes = 64ull << 20;
  const Kernel& k = *app::builtin_registry().find("affine.qmm");
  const auto plan = plan_sweep({&k}, small, {});
  for (const auto& t : plan.targets)
    for (const Case& c : t.boundary_cases) EXPECT_LE(case_device_bytes(k, c.params), small.total_mem_bytes);
  ASSERT_FALSE(plan.notes.empty());
  EXPECT_NE(plan.notes.back().find("larger than the device's memory"), std::string::npos) << plan.notes.back();
}

// A time budget stops planning (SweepPlanOptions::plan_until): the start shapes not reached plan
// nothing, every kernel keeps its targets for the random cases, and a note says what was left.
TEST(SweepPlan, PlanningStopsAtItsDeadlineKeepingEveryTargetAndSayingWhatIsLeft) {
  const Kernel& a = *app::builtin_registry().find("affine.qmm");
  const Kernel& g = *app::builtin_registry().find("gguf.mmvq");
  const DeviceLimits sm90 = *device_preset("sm_90");  // a copy: the preset is returned by value
  const SweepPlan whole = plan_sweep({&a, &g}, sm90, {.profiles = {}, .plan_until = std::chrono::steady_clock::now() + std::chrono::hours(1)});
  const SweepPlan none = plan_sweep({&a, &g}, sm90, {.profiles = {}, .plan_until = std::chrono::steady_clock::now()});
  const SweepPlan free = plan_sweep({&a, &g}, sm90, {.profiles = {}});
  ASSERT_EQ(none.targets.size(), whole.targets.size());
  ASSERT_EQ(free.targets.size(), whole.targets.size());
  std::size_t planned = 0;
  for (std::size_t i = 0; i < whole.targets.size(); ++i) {
    EXPECT_EQ(none.targets[i].kernel, whole.targets[i].kernel);
    EXPECT_EQ(none.targets[i].variant, whole.targets[i].variant);
    EXPECT_TRUE(none.targets[i].boundary_cases.empty()) << whole.targets[i].variant;
    EXPECT_EQ(whole.targets[i].boundary_cases.size(), free.targets[i].boundary_cases.size()) << "a deadline not reached cuts nothing";
    planned += whole.targets[i].boundary_cases.size();
  }
  EXPECT_GT(planned, 0u);
  const auto says = [](const SweepPlan& p) {
    return std::any_of(p.notes.begin(), p.notes.end(), [](const std::string& n) {
      return n.find("planning stopped") != std::string::npos && n.find("affine.qmm, gguf.mmvq") != std::string::npos;
    });
  };
  EXPECT_TRUE(says(none));
  EXPECT_FALSE(says(whole));
}

// `sweep --tiers`: only the named tiers' boundary cases stay, each with its tier; the plan says
// how many cases each tier holds.
TEST(SweepPlan, TierFilterKeepsOnlyTheNamedTiers) {
  const Kernel& k = *app::builtin_registry().find("gguf.moe_vec");
  // Crossings as found: the filter reads tiers, not shapes (weighing cheaper shapes made this test
  // 332 s under ASan).
  const auto full = plan_sweep({&k}, *device_preset("sm_90"),
                               {.profiles = app::parse_models("all"), .cheaper_crossing_above_bytes = UINT64_MAX});
  std::size_t defaults_in_full = 0;
  for (const auto& t : full.targets)
    for (int tier : t.tiers) defaults_in_full += tier == kDefaultBoundaries;
  ASSERT_GT(defaults_in_full, 0u);
  const bool counted = std::any_of(full.notes.begin(), full.notes.end(), [&](const std::string& n) {
    return n.find("defaults' boundaries " + std::to_string(defaults_in_full) + ",") != std::string::npos;
  });
  EXPECT_TRUE(counted) << "the plan's notes count each tier";

  auto defaults_only = full;
  keep_boundary_tiers(defaults_only, {"defaults"});
  std::size_t kept = 0;
  for (const auto& t : defaults_only.targets) {
    ASSERT_EQ(t.tiers.size(), t.boundary_cases.size());
    for (int tier : t.tiers) EXPECT_EQ(tier, kDefaultBoundaries);
    kept += t.boundary_cases.size();
  }
  EXPECT_EQ(kept, defaults_in_full);

  auto none = full;
  keep_boundary_tiers(none, {"none"});
  for (const auto& t : none.targets) EXPECT_TRUE(t.boundary_cases.empty());
  EXPECT_THROW(keep_boundary_tiers(none, {"bogus"}), std::invalid_argument);
}

// The speed tier: every variant once at each start shape (the defaults and every profile shape the
// kernel takes), apart from `all`, so a nightly can time that small set alone.
TEST(SweepPlan, TheSpeedTierIsEveryVariantAtEachStartShapeAndNotInAll) {
  const Kernel& k = *app::builtin_registry().find("affine.qmm");
  const auto full = plan_sweep({&k}, *device_preset("sm_90"), {.profiles = app::parse_models("all")});
  auto speed = full;
  keep_boundary_tiers(speed, {"speed"});
  std::set<std::string> shapes;
  for (const auto& t : speed.targets) {
    std::set<std::string> mine;
    for (std::size_t i = 0; i < t.boundary_cases.size(); ++i) {
      EXPECT_EQ(t.tiers[i], kSpeed);
      mine.insert(t.boundary_cases[i].params.to_string());
    }
    EXPECT_EQ(mine.size(), t.boundary_cases.size()) << "each start shape once";
    if (shapes.empty()) shapes = mine;
    EXPECT_EQ(mine, shapes) << t.variant << ": every variant at the same shapes";
  }
  EXPECT_TRUE(shapes.contains(Params::defaults(k.axes()).to_string()));
  // One shape per start shape the kernel takes: the defaults and each profile's (some share one).
  EXPECT_GT(shapes.size(), 5u);
  EXPECT_LT(shapes.size(), 60u) << "a small fixed set";
  // Each is a start shape of the boundary tiers too (where it runs untimed).
  for (const auto& t : full.targets)
    for (const std::string& shape : shapes) {
      bool in_boundaries = false;
      for (std::size_t i = 0; i < t.boundary_cases.size(); ++i)
        in_boundaries |= t.tiers[i] != kSpeed && t.boundary_cases[i].params.to_string() == shape;
      EXPECT_TRUE(in_boundaries) << shape;
    }
  auto all = full;
  keep_boundary_tiers(all, {"all"});
  for (const auto& t : all.targets)
    for (int tier : t.tiers) EXPECT_NE(tier, kSpeed) << "`all` is the boundary tiers";
}

// `sweep --tiers` names the tiers with the words of the CSV's `tier` column (one vocabulary), in
// SweepTier order; `all` and `none` belong to the command line alone.
TEST(SweepPlan, TierNamesAreTheVocabularysWords) {
  EXPECT_EQ(boundary_tier_names(),
            (std::vector<std::string>{"defaults", "profiles", "default-sizes", "profile-sizes", "speed", "all", "none"}));
  for (int tier = kDefaultBoundaries; tier <= kSpeed; ++tier) {
    EXPECT_EQ(to_string(boundary_case_tier(tier)), boundary_tier_names()[static_cast<std::size_t>(tier)]);
    EXPECT_EQ(parse_case_tier(boundary_tier_names()[static_cast<std::size_t>(tier)]), boundary_case_tier(tier));
  }
  EXPECT_THROW(boundary_case_tier(-1), std::out_of_range);
  EXPECT_THROW(boundary_case_tier(static_cast<int>(std::size(kBoundaryTiers))), std::out_of_range);
}

// Issue 30: the undirected plan stands at the crossing of the product of two axes, for every
// variant: with cols at its default 300, rows 218 (218*300 = 65400 < 2^16) and 219 (65700);
// with rows at 100, cols 655 and 656.
TEST(SizeCrossings, AProductOfTwoAxesIsPlannedAtEachWidth) {
  PairKernel k;
  const SweepPlan plan = plan_sweep({&k}, *device_preset("sm_90"));
  ASSERT_EQ(plan.targets.size(), 2u);
  for (const SweepTarget& t : plan.targets) {
    std::set<std::pair<std::string, std::string>> shapes;
    for (const Case& c : t.boundary_cases) shapes.insert({c.params.get("rows"), c.params.get("cols")});
    for (const auto& want : {std::pair<std::string, std::string>{"218", "300"}, {"219", "300"}, {"100", "655"},
                             {"100", "656"}})
      EXPECT_TRUE(shapes.contains(want)) << t.variant << ": rows=" << want.first << " cols=" << want.second;
    bool rule = false;
    for (const ModelBoundary& b : t.boundaries) rule = rule || b.rule == "size:axes cols*rows >= 2^16";
    EXPECT_TRUE(rule) << t.variant;
  }
}

// Issue 30: half the random draws take every integer axis at once from its whole log-range, so
// two axes both far from their defaults come up often: both past 2^14 of [1, 2^20] in about 2.9%
// of all draws (near the anchors alone: 0.4%). Drawn at size 0, as rapidcheck's first test does:
// the draws must not shrink towards the minimum with rapidcheck's size.
TEST(RandomParams, ReachFarOnSeveralAxesAtOnceFromTheFirstDraw) {
  PairKernel k;  // rows, cols in [1, 2^20], defaults 100 and 300
  const rc::Gen<Params> gen = random_params(k, {});
  rc::Random random(42);
  std::size_t both_far = 0;
  for (int i = 0; i < 2000; ++i) {
    const Params p = gen(random.split(), 0).value();
    both_far += p.get_u64("rows") >= (1u << 14) && p.get_u64("cols") >= (1u << 14);
  }
  EXPECT_GE(both_far, 20u);  // expected about 57 of 2000; near-only draws would give about 7
}
