// The runner end to end on a GPU with the self-test kernel: a refused legacy launch leaves its
// output unwritten and is observed as refused; the fixed twin passes the split and CPU checks; the
// variants of one shape share a split reference only where it is theirs to share.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <vector>

#include "gridfuzz/device/context.hpp"
#include "gridfuzz/device/cuda_error.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/driver_api.hpp"
#include "gridfuzz/device/kernel_activity.hpp"
#include "gridfuzz/device/stream.hpp"
#include "gridfuzz/engine/guarded_buffers.hpp"
#include "gridfuzz/engine/runner.hpp"
#include "gridfuzz/engine/shared_reference.hpp"
#include "selftest_kernels.hpp"

using namespace gridfuzz;

namespace {

class RunnerGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (device::device_count() == 0) {
      std::string why;
      device::driver_available(&why);
      GTEST_SKIP() << "no CUDA device: " << why;
    }
    ctx_ = std::make_unique<device::PrimaryContext>(0);
    limits_ = device::query_limits(0);
  }
  CaseResult run(const std::string& variant, std::uint64_t rows, const Ledger& ledger = Ledger(), bool timing = false) {
    Case c{"selftest.flat_yz", variant, Params::defaults(kernel_->axes()), 7};
    c.params.set("rows", std::to_string(rows));
    RunOptions o;
    o.timing = timing;
    return run_case(*kernel_, c, limits_, o, ledger);
  }
  std::shared_ptr<const Kernel> kernel_ = selftest::make_flat_index_yz();
  std::unique_ptr<device::PrimaryContext> ctx_;
  DeviceLimits limits_;
};

}  // namespace

// The guard zones are laid with cuMemsetD8 on the legacy stream, which returns before it is done;
// the runner then fills the inputs on its own non-blocking stream. Work queued there right after
// construction must find the guards laid, not be overwritten by them: without the wait, a fill of
// a 4 GiB input raced the memset (affine.qmm hopper's inputs, evidence/2026-12-03-h200-wrap-crossings).
TEST_F(RunnerGpu, WorkQueuedOnTheHarnessStreamRightAfterTheGuardsAreLaidKeepsWhatItWrote) {
  const std::uint64_t bytes = std::uint64_t{4} << 30;
  for (int attempt = 0; attempt < 3; ++attempt) {
    const GuardedBuffers bufs({{"x", BufferRole::input, ElementType::u8, bytes}});
    device::Stream stream;
    device::check(device::driver().cuMemsetD8Async(bufs.ptr(0), 0x11, bytes, stream.get()), "cuMemsetD8Async");
    stream.synchronize();
    std::vector<std::uint8_t> chunk(1 << 20);
    std::uint64_t wrong = 0;
    for (std::uint64_t part = 0; part < 16; ++part) {
      bufs.read(0, part * (bytes / 16), chunk.data(), chunk.size());
      for (const std::uint8_t b : chunk) wrong += b != 0x11;
    }
    EXPECT_EQ(wrong, 0u) << "attempt " << attempt << ": bytes of 16 MiB sampled that the guards' memset overwrote";
    EXPECT_TRUE(bufs.guard_violations().empty()) << "attempt " << attempt;
  }
}

TEST_F(RunnerGpu, LegacyPassesBelowTheLimit) {
  const CaseResult r = run("legacy", 65535);
  EXPECT_EQ(r.observed.to_string(), "accept");
  EXPECT_EQ(r.verdict.to_string(), "pass") << r.detail << " oracle " << r.oracle.to_string();
  EXPECT_EQ(r.oracle.to_string(), "split:exact:0 unwritten:0 cpu:256/256");
}

TEST_F(RunnerGpu, LegacyRefusedAtTheLimitIsExpectedByTheLedger) {
  const CaseResult unexpected = run("legacy", 65536);
  EXPECT_EQ(unexpected.prediction.outcome, "refuse:grid.z");
  EXPECT_EQ(unexpected.observed.to_string(), "refuse:CUDA_ERROR_INVALID_VALUE");
  EXPECT_EQ(unexpected.verdict.to_string(), "fail:refused");
  const CaseResult expected = run("legacy", 65536, Ledger::parse("selftest.flat_yz legacy refused"));
  EXPECT_EQ(expected.verdict.to_string(), "expected-fail");
}

TEST_F(RunnerGpu, FixedPassesFarPastTheLimitWithTiming) {
  const CaseResult r = run("fixed", 200000, Ledger(), true);
  EXPECT_EQ(r.verdict.to_string(), "pass") << r.detail;
  EXPECT_EQ(r.oracle.split_mismatches, 0u);
  EXPECT_EQ(r.timing.samples, 10);
  EXPECT_GT(r.timing.median_ms, 0);
  EXPECT_GE(r.timing.max_ms, r.timing.median_ms);
  EXPECT_GT(r.timing.gbps, 1.0);
  // Kernel time: as many samples, exactly the plan's kernels per call (not the L2 flush before it,
  // not a kernel of the previous sample), each call's kernels shorter than the call around them.
  if (const auto why = device::KernelActivity::unavailable_reason()) {
    EXPECT_EQ(r.timing.kernel_samples, 0) << "CUPTI unavailable: " << *why;
    return;
  }
  EXPECT_EQ(r.timing.kernel_samples, r.timing.samples);
  EXPECT_EQ(r.timing.kernels_per_call, static_cast<int>(r.plan.launches.size()));
  EXPECT_GT(r.timing.kernel_min_ms, 0);
  EXPECT_LE(r.timing.kernel_min_ms, r.timing.kernel_median_ms);
  EXPECT_LE(r.timing.kernel_median_ms, r.timing.kernel_max_ms);
  EXPECT_LT(r.timing.kernel_median_ms, r.timing.median_ms);
}

TEST_F(RunnerGpu, OverBudgetIsSkippedBeforeAllocating) {
  Case c{"selftest.flat_yz", "fixed", Params::defaults(kernel_->axes()), 1};
  c.params.set("rows", "100000");
  RunOptions o;
  o.memory_budget_bytes = 1 << 20;
  const CaseResult r = run_case(*kernel_, c, limits_, o, Ledger());
  EXPECT_EQ(r.observed.to_string(), "skipped:over-budget");
  EXPECT_EQ(r.verdict.to_string(), "skipped");
}

namespace {

// After a split reference's launches, on its outputs (a test's way to make a reference wrong).
using AfterReference = std::function<void(const BufferSet&)>;

// The self-test kernel's cases, saying (or not) that their reference is the same for every
// variant: true of flat_yz, whose split reference runs the fixed geometry whatever the variant.
// `after_reference`, when set, runs after each split reference.
class SharingCase final : public BoundCase {
 public:
  SharingCase(std::unique_ptr<BoundCase> inner, bool shares, AfterReference after_reference = {})
      : inner_(std::move(inner)), shares_(shares), after_reference_(std::move(after_reference)) {}
  LaunchPlan plan(const DeviceLimits& l) const override { return inner_->plan(l); }
  std::vector<BufferSpec> buffers() const override { return inner_->buffers(); }
  std::uint64_t bytes_moved() const override { return inner_->bytes_moved(); }
  std::vector<SplitPiece> split(const DeviceLimits& l) const override { return inner_->split(l); }
  ComparePolicy compare_policy() const override { return inner_->compare_policy(); }
  void fill_inputs(std::uint64_t seed, const BufferSet& b, CUstream s) const override { inner_->fill_inputs(seed, b, s); }
  void launch(const DeviceLimits& l, const BufferSet& b, device::Launcher& launcher, CUstream s) const override {
    inner_->launch(l, b, launcher, s);
  }
  void launch_split_reference(const DeviceLimits& l, const BufferSet& b, device::Launcher& launcher,
                              CUstream s) const override {
    inner_->launch_split_reference(l, b, launcher, s);
    if (after_reference_) after_reference_(b);
  }
  std::vector<ReferenceSample> cpu_reference(const BufferSet& b, std::uint64_t seed, std::size_t n) const override {
    return inner_->cpu_reference(b, seed, n);
  }
  bool reference_same_for_every_variant() const override { return shares_; }

 private:
  std::unique_ptr<BoundCase> inner_;
  bool shares_;
  AfterReference after_reference_;
};

class SharingKernel final : public Kernel {
 public:
  SharingKernel(std::shared_ptr<const Kernel> inner, bool shares, AfterReference after_reference = {})
      : inner_(std::move(inner)), shares_(shares), after_reference_(std::move(after_reference)) {}
  std::string name() const override { return inner_->name(); }
  std::string description() const override { return inner_->description(); }
  std::vector<std::string> variants() const override { return inner_->variants(); }
  std::vector<AxisSpec> axes() const override { return inner_->axes(); }
  std::optional<std::string> check(const Params& p) const override { return inner_->check(p); }
  std::unique_ptr<BoundCase> bind(const Params& p, const std::string& variant) const override {
    return std::make_unique<SharingCase>(inner_->bind(p, variant), shares_, after_reference_);
  }

 private:
  std::shared_ptr<const Kernel> inner_;
  bool shares_;
  AfterReference after_reference_;
};

class SharedReferenceGpu : public RunnerGpu {
 protected:
  Case flat_case(const std::string& variant, std::uint64_t rows) const {
    Case c{"selftest.flat_yz", variant, Params::defaults(kernel_->axes()), 7};
    c.params.set("rows", std::to_string(rows));
    return c;
  }
  CaseResult run_sharing(const Kernel& k, const Case& c, SharedReference& kept, bool keep_after) {
    ReferenceReuse reuse{kept, keep_after};
    return run_case(k, c, limits_, RunOptions{}, Ledger(), &reuse);
  }
};

}  // namespace

// fixed and legacy at 65535 rows: the same outputs. The second judges against the first's
// reference (no reference time of its own) with the row a fresh reference gives.
TEST_F(SharedReferenceGpu, TheNextVariantOfAShapeJudgesAgainstTheKeptReference) {
  const SharingKernel sharing(kernel_, true);
  SharedReference kept;
  const CaseResult first = run_sharing(sharing, flat_case("fixed", 65535), kept, true);
  ASSERT_EQ(first.verdict.to_string(), "pass") << first.detail;
  EXPECT_GT(first.phases.reference_ms, 0);
  ASSERT_TRUE(kept.holds());
  const CaseResult second = run_sharing(sharing, flat_case("legacy", 65535), kept, false);
  EXPECT_FALSE(kept.holds()) << "the last of its group keeps nothing";
  const CaseResult alone = run("legacy", 65535);
  EXPECT_EQ(second.verdict.to_string(), alone.verdict.to_string()) << second.detail;
  EXPECT_EQ(second.oracle.to_string(), alone.oracle.to_string());
  EXPECT_EQ(second.detail, alone.detail);
  EXPECT_EQ(second.phases.reference_ms, 0) << "the kept reference was used";
}

// A kept reference the outputs do not match is not trusted: a fresh one decides.
TEST_F(SharedReferenceGpu, AKeptReferenceTheOutputsDoNotMatchIsReplacedByAFreshOne) {
  const SharingKernel sharing(kernel_, true);
  const Case c = flat_case("fixed", 65535);
  std::vector<BufferSpec> outputs = sharing.bind(c.params, c.variant)->buffers();
  for (BufferSpec& s : outputs)
    if (s.role == BufferRole::input) s.elements = 0;
  auto wrong = std::make_unique<GuardedBuffers>(outputs);
  wrong->poison_outputs();  // no output of the kernel is poison
  SharedReference kept;
  kept.keep(shared_reference_key(c, sharing.bind(c.params, c.variant)->buffers()), std::move(wrong));
  const CaseResult r = run_sharing(sharing, c, kept, false);
  EXPECT_EQ(r.verdict.to_string(), "pass") << r.detail;
  EXPECT_EQ(r.oracle.split_mismatches, 0u);
  EXPECT_GT(r.phases.reference_ms, 0) << "a fresh reference ran";
  EXPECT_FALSE(kept.holds());
}

// A case that does not say its reference is shared neither uses nor keeps one; a kept reference
// of another shape is freed before the case allocates.
TEST_F(SharedReferenceGpu, ACaseWhoseReferenceDependsOnItsVariantKeepsNothing) {
  const SharingKernel sharing(kernel_, true);
  const SharingKernel own(kernel_, false);
  SharedReference kept;
  ASSERT_EQ(run_sharing(sharing, flat_case("fixed", 1000), kept, true).verdict.to_string(), "pass");
  ASSERT_TRUE(kept.holds());
  const CaseResult r = run_sharing(own, flat_case("fixed", 1000), kept, true);
  EXPECT_EQ(r.verdict.to_string(), "pass") << r.detail;
  EXPECT_GT(r.phases.reference_ms, 0);
  EXPECT_FALSE(kept.holds());
  ASSERT_EQ(run_sharing(sharing, flat_case("fixed", 1000), kept, true).verdict.to_string(), "pass");
  ASSERT_TRUE(kept.holds());
  run_sharing(sharing, flat_case("fixed", 2000), kept, false);
  EXPECT_FALSE(kept.holds()) << "another shape's reference is freed";
}

namespace {

// A reference whose first `wrong_calls` runs come out with one output element changed: a race
// that hit the split reference, not the production call.
AfterReference wrong_for_the_first(int wrong_calls) {
  auto calls = std::make_shared<int>(0);
  return [calls, wrong_calls](const BufferSet& b) {
    if ((*calls)++ >= wrong_calls) return;
    std::uint8_t byte = 0;
    b.read(b.index_of("y"), 0, &byte, 1);
    byte ^= 1;
    b.write(b.index_of("y"), 0, &byte, 1);
  };
}

}  // namespace

// The outputs differ from the split reference and the two production calls agree: the reference is
// made again. One that then matches names the race (the kernel's own reference calls differ);
// one that is wrong the same way again leaves the mismatch.
TEST_F(SharedReferenceGpu, AMismatchTheSecondCallRepeatsMakesTheReferenceAgain) {
  const SharingKernel flaky(kernel_, false, wrong_for_the_first(1));
  const CaseResult raced = run_case(flaky, flat_case("fixed", 1000), limits_, RunOptions{}, Ledger());
  EXPECT_EQ(raced.verdict.to_string(), "fail:nondeterministic") << raced.detail;
  EXPECT_EQ(raced.oracle.to_string(), "split:exact:1 unwritten:0 cpu:256/256 self:same ref-again:0");
  EXPECT_NE(raced.detail.find("reference calls differ"), std::string::npos) << raced.detail;

  const SharingKernel wrong(kernel_, false, wrong_for_the_first(1000));
  const CaseResult mismatch = run_case(wrong, flat_case("fixed", 1000), limits_, RunOptions{}, Ledger());
  EXPECT_EQ(mismatch.verdict.to_string(), "fail:mismatch") << mismatch.detail;
  EXPECT_EQ(mismatch.oracle.to_string(), "split:exact:1 unwritten:0 cpu:256/256 self:same ref-again:1");
}
