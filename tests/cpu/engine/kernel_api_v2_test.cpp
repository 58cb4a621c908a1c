// Kernel API v2 itself (harness/include/gridfuzz/kernel.hpp): buffers found by name, the
// defaults of a BoundCase, host-computed arguments judged by the prediction like indices, the
// 16-bit index types, the self-test kernels' bind(), and byte counts that do not fit in 64
// bits. Host only: no GPU.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "gridfuzz/core/ledger.hpp"
#include "gridfuzz/engine/guarded_buffers.hpp"
#include "gridfuzz/engine/output_compare.hpp"
#include "gridfuzz/engine/runner.hpp"
#include "gridfuzz/engine/seeded_values.hpp"
#include "gridfuzz/kernel.hpp"
#include "gridfuzz/predictor.hpp"
#include "gridfuzz/registry.hpp"
#include "selftest_kernels.hpp"

using namespace gridfuzz;

namespace {

const DeviceLimits kH200 = *device_preset("sm_90");

const std::vector<BufferSpec> kSpecs = {{"x", BufferRole::input, ElementType::f32, 10},
                                        {"weights", BufferRole::input, ElementType::u8, 7},
                                        {"y", BufferRole::output, ElementType::i32, 3}};

// A BufferSet with made-up addresses (nothing is dereferenced): buffer i lives at 0x1000 * (i + 1).
class FakeBuffers final : public BufferSet {
 public:
  explicit FakeBuffers(std::vector<BufferSpec> specs) : specs_(std::move(specs)) {}
  using BufferSet::ptr;
  CUdeviceptr ptr(std::size_t index) const override {
    if (index >= specs_.size()) throw std::out_of_range("no buffer " + std::to_string(index));
    return 0x1000 * (index + 1);
  }
  std::uint64_t bytes(std::size_t index) const override { return specs_.at(index).bytes(); }
  void read(std::size_t, std::uint64_t, void*, std::uint64_t) const override { throw std::logic_error("host only"); }
  void write(std::size_t, std::uint64_t, const void*, std::uint64_t) const override {
    throw std::logic_error("host only");
  }
  std::size_t index_of(std::string_view name) const override { return buffer_index(specs_, name); }

 private:
  std::vector<BufferSpec> specs_;
};

// A case that states only what it must: everything with a default keeps it.
class MinimalCase final : public BoundCase {
 public:
  explicit MinimalCase(std::vector<BufferSpec> specs) : specs_(std::move(specs)) {}
  LaunchPlan plan(const DeviceLimits&) const override { return {}; }
  std::vector<BufferSpec> buffers() const override { return specs_; }
  void launch(const DeviceLimits&, const BufferSet&, device::Launcher&, CUstream) const override {}
  std::vector<ReferenceSample> cpu_reference(const BufferSet&, std::uint64_t, std::size_t) const override {
    return {};
  }

 private:
  std::vector<BufferSpec> specs_;
};

// A kernel that states only what it must: a name, its axes (through Axis) and bind().
class MinimalKernel final : public Kernel {
 public:
  explicit MinimalKernel(std::vector<AxisSpec> axes) : axes_(std::move(axes)) {}
  std::string name() const override { return "minimal.k"; }
  std::vector<AxisSpec> axes() const override { return axes_; }
  std::unique_ptr<BoundCase> bind(const Params&, const std::string&) const override {
    return std::make_unique<MinimalCase>(kSpecs);
  }

 private:
  std::vector<AxisSpec> axes_;
};

// A plan with one legal launch and one host-computed argument.
LaunchPlan plan_with_argument(const std::string& name, u128 value, IndexType type) {
  LaunchPlan plan;
  LaunchSpec l;
  l.name = "k";
  l.grid = {1, 1, 1};
  l.block = {32, 1, 1};
  plan.launches.push_back(l);
  plan.host_arguments.push_back({name, value, type});
  return plan;
}

const Registry& selftests() {
  static const Registry r = [] {
    Registry reg;
    selftest::register_kernels(reg);
    return reg;
  }();
  return r;
}

}  // namespace

TEST(BufferIndex, FindsEachBufferByItsName) {
  EXPECT_EQ(buffer_index(kSpecs, "x"), 0u);
  EXPECT_EQ(buffer_index(kSpecs, "weights"), 1u);
  EXPECT_EQ(buffer_index(kSpecs, "y"), 2u);
}

TEST(BufferIndex, AnUnknownNameThrowsOutOfRangeNamingTheBuffers) {
  try {
    buffer_index(kSpecs, "dst");
    FAIL() << "no throw";
  } catch (const std::out_of_range& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'dst'"), std::string::npos) << what;
    EXPECT_NE(what.find("x, weights, y"), std::string::npos) << what;
  }
  EXPECT_THROW(buffer_index({}, "x"), std::out_of_range);
  EXPECT_THROW(buffer_index(kSpecs, "X"), std::out_of_range);  // names are exact
}

TEST(BufferSetByName, PtrAndAsReachTheBufferOfThatName) {
  const FakeBuffers bufs(kSpecs);
  for (std::size_t i = 0; i < kSpecs.size(); ++i) {
    EXPECT_EQ(bufs.index_of(kSpecs[i].name), i);
    EXPECT_EQ(bufs.ptr(kSpecs[i].name), bufs.ptr(i));
  }
  EXPECT_EQ(bufs.as<float>("x"), bufs.as<float>(0));
  EXPECT_EQ(bufs.as<std::int32_t>("y"), bufs.as<std::int32_t>(2));
  EXPECT_NE(bufs.ptr("x"), bufs.ptr("y"));
  EXPECT_THROW(bufs.ptr("dst"), std::out_of_range);
  EXPECT_THROW(bufs.as<float>("dst"), std::out_of_range);
}

RC_GTEST_PROP(BoundCaseDefaults, BytesMovedIsEveryBufferOnce, ()) {
  const auto count = *rc::gen::inRange<std::size_t>(0, 6);
  std::vector<BufferSpec> specs;
  std::uint64_t expected = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const auto type = *rc::gen::element(ElementType::f32, ElementType::f16, ElementType::bf16, ElementType::i32,
                                        ElementType::u32, ElementType::u8);
    const auto elements = *rc::gen::inRange<std::uint64_t>(0, 1ull << 40);
    const BufferRole role = i % 2 ? BufferRole::output : BufferRole::input;
    specs.push_back({std::string(1, static_cast<char>('a' + i)), role, type, elements});
    expected += elements * element_bytes(type);
  }
  RC_ASSERT(MinimalCase(specs).bytes_moved() == expected);
}

TEST(BoundCaseDefaults, NoSplitReferenceAndItsLaunchRefusesToRunAlone) {
  const MinimalCase c(kSpecs);
  EXPECT_TRUE(c.split(kH200).empty());  // the oracle then skips the split comparison (split:none)
  const FakeBuffers bufs(kSpecs);
  device::Launcher launcher;
  try {
    c.launch_split_reference(kH200, bufs, launcher, nullptr);
    FAIL() << "no throw";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("launch_split_reference"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(launcher.records().empty());
}

TEST(KernelDefaults, DescriptionOneVariantAndNoConstraint) {
  const MinimalKernel k({Axis::integer("rows", 1, 100)});
  EXPECT_EQ(k.description(), "no description");
  EXPECT_EQ(k.variants(), std::vector<std::string>{"default"});
  Params p;
  p.set("rows", "7");
  EXPECT_EQ(k.check(p), std::nullopt);
  EXPECT_EQ(k.launch_owner(), LaunchOwner::harness_launcher);
  Registry registry;
  EXPECT_NO_THROW(registry.add(std::make_shared<MinimalKernel>(k.axes())));
  EXPECT_EQ(registry.find("minimal.k")->variants(), std::vector<std::string>{"default"});
}

TEST(AxisBuilder, WritesEveryFieldByItsName) {
  const AxisSpec rows = Axis::integer("rows", 1, 1 << 20).default_value(1024).help("rows of the batch");
  EXPECT_EQ(rows.name, "rows");
  EXPECT_EQ(rows.help, "rows of the batch");
  EXPECT_EQ(rows.default_value, "1024");
  EXPECT_EQ(rows.min, 1);
  EXPECT_EQ(rows.max, 1 << 20);
  EXPECT_EQ(rows.step, 1);
  EXPECT_FALSE(rows.is_choice());
  const AxisSpec cols = Axis::integer("cols", 32, 8192).step(32);
  EXPECT_EQ(cols.default_value, "32");  // an integer axis without a default starts at its min
  EXPECT_EQ(cols.step, 32);
  EXPECT_EQ(cols.help, "cols");         // the name, until help() says more
  const AxisSpec dtype = Axis::choice("dtype", {"f16", "bf16"});
  EXPECT_TRUE(dtype.is_choice());
  EXPECT_EQ(dtype.default_value, "f16");  // the first choice
  EXPECT_EQ(dtype.choices, (std::vector<std::string>{"f16", "bf16"}));
  EXPECT_EQ(AxisSpec(Axis::choice("dtype", {"f16", "bf16"}).default_value("bf16")).default_value, "bf16");
  // In the brace list axes() returns.
  const std::vector<AxisSpec> axes = {Axis::integer("rows", 1, 8), Axis::choice("dtype", {"f16"})};
  EXPECT_EQ(axes.size(), 2u);
}

TEST(AxisBuilder, ADefaultItsAxisRefusesIsRefusedAtRegistration) {
  for (const AxisSpec& bad : {AxisSpec(Axis::integer("rows", 1, 100).default_value(0)),
                              AxisSpec(Axis::integer("cols", 32, 8192).step(32).default_value(100)),
                              AxisSpec(Axis::choice("dtype", {"f16", "bf16"}).default_value("f32"))}) {
    Registry registry;
    try {
      registry.add(std::make_shared<MinimalKernel>(std::vector<AxisSpec>{bad}));
      FAIL() << "registered with default " << bad.default_value;
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("minimal.k"), std::string::npos) << what;
      EXPECT_NE(what.find("'" + bad.name + "'"), std::string::npos) << what;
    }
  }
}

// fill_inputs' default writes these bits on the GPU (seeded_fill.cu); here, what they are.
RC_GTEST_PROP(BoundCaseDefaults, SeededInputsAreNeverZeroAndInTheirRange, ()) {
  const auto type = *rc::gen::element(ElementType::f32, ElementType::f16, ElementType::bf16, ElementType::i32,
                                      ElementType::u32, ElementType::u8);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto buffer = *rc::gen::inRange<std::uint64_t>(0, 16);
  const auto element = *rc::gen::arbitrary<std::uint64_t>();
  const std::uint32_t bits = seeded_element_bits(type, seed, buffer, element);
  RC_ASSERT(bits == seeded_element_bits(type, seed, buffer, element));  // the seed alone decides
  RC_ASSERT((element_bytes(type) == 4 || bits >> (8 * element_bytes(type)) == 0u));  // fits its type
  const double v = element_to_double(type, bits);
  const bool is_float = type == ElementType::f32 || type == ElementType::f16 || type == ElementType::bf16;
  if (is_float) RC_ASSERT(v >= 0.5 && v < 2.0);
  else RC_ASSERT(v >= 1.0 && v <= 127.0);
}

TEST(BoundCaseDefaults, SeededInputsDependOnSeedBufferAndElement) {
  std::set<std::uint32_t> by_element, by_seed, by_buffer;
  for (std::uint64_t i = 0; i < 64; ++i) {
    by_element.insert(seeded_element_bits(ElementType::f32, 1, 0, i));
    by_seed.insert(seeded_element_bits(ElementType::f32, i, 0, 0));
    by_buffer.insert(seeded_element_bits(ElementType::f32, 1, i, 0));
  }
  EXPECT_EQ(by_element.size(), 64u);
  EXPECT_EQ(by_seed.size(), 64u);
  EXPECT_EQ(by_buffer.size(), 64u);
  // Both halves of [0.5, 2) are reached, and the integers cover their range.
  std::set<bool> below_one;
  std::set<std::uint32_t> integers;
  for (std::uint64_t i = 0; i < 4096; ++i) {
    below_one.insert(element_to_double(ElementType::bf16, seeded_element_bits(ElementType::bf16, 9, 1, i)) < 1.0);
    integers.insert(seeded_element_bits(ElementType::u8, 9, 1, i));
  }
  EXPECT_EQ(below_one.size(), 2u);
  EXPECT_EQ(integers.size(), 127u);
}

TEST(BoundCaseDefaults, ComparePolicyIsBitExactAndSaysSo) {
  const ComparePolicy p = MinimalCase(kSpecs).compare_policy();
  EXPECT_TRUE(p.exact);
  EXPECT_EQ(p.rel_tol, 0.0);
  EXPECT_EQ(p.abs_tol, 0.0);
  EXPECT_FALSE(p.why.empty());
}

TEST(HostArguments, OneOverItsTypeIsPredictedAsAnArgumentWrap) {
  struct Row {
    IndexType type;
    u128 last_fitting;
  };
  for (const Row& r : {Row{IndexType::int16, 32767}, Row{IndexType::uint16, 65535},
                       Row{IndexType::int32, (u128{1} << 31) - 1}, Row{IndexType::uint32, (u128{1} << 32) - 1},
                       Row{IndexType::int64, (u128{1} << 63) - 1}}) {
    const Prediction fits = predict(plan_with_argument("n", r.last_fitting, r.type), kH200);
    EXPECT_EQ(fits.index_wrap(), "safe") << to_string(r.type);
    const Prediction wraps = predict(plan_with_argument("n", r.last_fitting + 1, r.type), kH200);
    EXPECT_EQ(wraps.index_wrap(), "wrap:arg:n") << to_string(r.type);
    // The launch itself is still legal: an argument wrap is an index verdict, not a refusal.
    EXPECT_EQ(wraps.outcome, "accept") << to_string(r.type);
  }
}

TEST(HostArguments, AreJudgedAfterTheDeclaredIndices) {
  LaunchPlan plan = plan_with_argument("count", u128{1} << 40, IndexType::int32);
  plan.indices.push_back({"offset", u128{1} << 33, IndexType::uint32, "elements"});
  const Prediction p = predict(plan, kH200);
  ASSERT_EQ(p.indices.size(), 2u);
  EXPECT_EQ(p.indices[0].name, "offset");
  EXPECT_EQ(p.indices[1].name, "arg:count");
  EXPECT_FALSE(p.indices[1].safe);
  EXPECT_EQ(p.index_wrap(), "wrap:offset");  // the first wrapping one
}

TEST(IndexTypes, SixteenBitTypesWrapAtTwoToFifteenAndSixteen) {
  EXPECT_TRUE(first_wrapping_value(IndexType::int16) == (u128{1} << 15));
  EXPECT_TRUE(first_wrapping_value(IndexType::uint16) == (u128{1} << 16));
  EXPECT_TRUE(check_index({"i", 32767, IndexType::int16, "elements"}).safe);
  EXPECT_FALSE(check_index({"i", 32768, IndexType::int16, "elements"}).safe);
  EXPECT_TRUE(check_index({"i", 65535, IndexType::uint16, "elements"}).safe);
  EXPECT_FALSE(check_index({"i", 65536, IndexType::uint16, "elements"}).safe);
}

TEST(IndexTypes, EveryTypeRoundTripsThroughItsName) {
  std::set<std::string> names;
  for (IndexType t : {IndexType::int16, IndexType::uint16, IndexType::int32, IndexType::uint32, IndexType::int64,
                      IndexType::uint64}) {
    const std::string name = to_string(t);
    EXPECT_TRUE(names.insert(name).second) << name;
    ASSERT_TRUE(parse_index_type(name)) << name;
    EXPECT_EQ(*parse_index_type(name), t) << name;
  }
  EXPECT_EQ(names, (std::set<std::string>{"int16", "uint16", "int32", "uint32", "int64", "uint64"}));
  EXPECT_FALSE(parse_index_type("int8"));
  EXPECT_FALSE(parse_index_type("Int16"));
}

// Every self-test kernel binds each of its variants, names its buffers uniquely, and refuses an
// unknown variant; the conveniences give what the bound case gives.
TEST(SelftestBind, EveryVariantBindsAndAnUnknownOneIsRefused) {
  for (const auto& k : selftests().all()) {
    const Params p = Params::defaults(k->axes());
    for (const std::string& v : k->variants()) {
      const auto bound = k->bind(p, v);
      ASSERT_TRUE(bound) << k->name() << " " << v;
      std::set<std::string> names;
      for (const BufferSpec& b : bound->buffers())
        EXPECT_TRUE(names.insert(b.name).second) << k->name() << " " << b.name;
      EXPECT_EQ(k->buffers(p, v).size(), bound->buffers().size()) << k->name();
      EXPECT_EQ(k->plan(p, v, kH200).launches.size(), bound->plan(kH200).launches.size()) << k->name();
    }
    EXPECT_THROW(k->bind(p, "no-such-variant"), std::invalid_argument) << k->name();
  }
}

// selftest.host_int32 passes `int n = rows * cols` to its legacy kernel: the plan declares it,
// so the prediction names the argument that wraps, and the fixed twin's 64-bit n never does.
TEST(SelftestHostArguments, HostInt32DeclaresItsIntCount) {
  const auto k = selftests().find("selftest.host_int32");
  ASSERT_TRUE(k);
  auto at = [&](std::uint64_t rows, const std::string& variant) {
    Params p = Params::defaults(k->axes());
    p.set("cols", "65536");
    p.set("rows", std::to_string(rows));
    const Prediction pred = predict(k->plan(p, variant, kH200), kH200);
    for (const IndexVerdict& v : pred.indices)
      if (v.name == "arg:n") return std::optional<bool>(v.safe);
    return std::optional<bool>();
  };
  EXPECT_EQ(at(32767, "legacy"), std::optional<bool>(true));    // n = 2^31 - 65536
  EXPECT_EQ(at(32768, "legacy"), std::optional<bool>(false));   // n = 2^31
  EXPECT_EQ(at(65537, "legacy"), std::optional<bool>(false));   // n = 2^32 + 65536: small block count
  EXPECT_EQ(at(65537, "fixed"), std::optional<bool>(true));
}

namespace {

// One buffer of `elements` f32 values, whatever the shape: a plugin's count that nothing caps.
class HugeBufferKernel final : public Kernel {
 public:
  explicit HugeBufferKernel(std::uint64_t elements) : elements_(elements) {}
  std::string name() const override { return "test.huge"; }
  std::string description() const override { return "one buffer of a fixed count"; }
  std::vector<std::string> variants() const override { return {"only"}; }
  std::vector<AxisSpec> axes() const override { return {{"n", "unused", "1", {}, 1, 8, 1}}; }
  std::optional<std::string> check(const Params&) const override { return std::nullopt; }
  std::unique_ptr<BoundCase> bind(const Params&, const std::string&) const override {
    return std::make_unique<MinimalCase>(std::vector<BufferSpec>{{"w", BufferRole::output, ElementType::f32, elements_}});
  }

 private:
  std::uint64_t elements_;
};

}  // namespace

// Issue 34: 2^62 f32 elements are 2^64 bytes, which wrapped to 0: a case that no device holds
// passed the memory budget as a small one and reached the allocation. The harness's sizes
// saturate instead: more than any device, never a small wrapped total.
TEST(BufferBytes, TheHarnessSizesSaturateInsteadOfWrapping) {
  const BufferSpec fits{"w", BufferRole::output, ElementType::f32, (std::uint64_t{1} << 62) - 1};
  EXPECT_EQ(fits.bytes(), UINT64_MAX - 3);  // (2^62 - 1) * 4
  const BufferSpec huge{"w", BufferRole::output, ElementType::f32, std::uint64_t{1} << 62};
  EXPECT_EQ(huge.bytes(), UINT64_MAX) << "the plugin API's own size saturates too";
  EXPECT_EQ(GuardedBuffers::footprint({huge}), UINT64_MAX);
  EXPECT_EQ(GuardedBuffers::footprint({fits, fits}), UINT64_MAX);
  EXPECT_EQ(MinimalCase({huge}).bytes_moved(), UINT64_MAX);
  EXPECT_EQ(case_device_need(MinimalCase({huge})), UINT64_MAX);
  EXPECT_THROW(GuardedBuffers({huge}), std::overflow_error) << "never allocated at a wrapped size";
}

TEST(BufferBytes, ACaseOfMoreThanTwoToTheSixtyFourBytesIsSkippedOverBudgetNotAllocated) {
  const HugeBufferKernel kernel(std::uint64_t{1} << 62);
  const Case c{kernel.name(), "only", Params::defaults(kernel.axes()), 1};
  const CaseResult r = run_case(kernel, c, kH200, RunOptions{}, Ledger{});  // no device call before the budget
  EXPECT_EQ(r.observed.kind, Observed::Kind::skipped) << r.detail;
  EXPECT_EQ(r.observed.reason, "over-budget") << r.detail;
  EXPECT_NE(r.detail.find("more than 2^64 bytes"), std::string::npos) << r.detail;
}
