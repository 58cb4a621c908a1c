// The runner end to end on a GPU with the self-test kernel: a refused legacy launch leaves its
// output unwritten and is observed as refused; the fixed twin passes the split and CPU checks.
#include <gtest/gtest.h>

#include "gridfuzz/device/context.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/driver_api.hpp"
#include "gridfuzz/device/kernel_activity.hpp"
#include "gridfuzz/engine/runner.hpp"
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
