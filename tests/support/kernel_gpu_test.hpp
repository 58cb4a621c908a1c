#pragma once
// The fixture of the kernel families' GPU suites (tests/gpu/kernels/<family>): skip, with the
// reason, when there is no CUDA device; otherwise device 0's primary context and its limits. run()
// sends one case through the real runner (prediction, launch, split reference, float64 CPU
// reference with 256 samples) with an empty ledger and prints one CASE line, the line the result
// tables of docs/ quote. A suite derives from it, names who needs the device and, where it has
// more to check before a case can run (a compute capability, the launch recorder), adds that to
// SetUp after calling this one:
//   void SetUp() override { KernelGpuTest::SetUp(); if (IsSkipped()) return; ... }
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <optional>
#include <string>
#include <utility>

#include "gridfuzz/device/context.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/engine/runner.hpp"

namespace gridfuzz::testing {

class KernelGpuTest : public ::testing::Test {
 protected:
  // `needs`: who needs the device, for the skip reason ("vLLM's kernels": "no CUDA device:
  // vLLM's kernels need one"). `seed`: the cases' seed.
  explicit KernelGpuTest(std::string needs, std::uint64_t seed = 20261130) : needs_(std::move(needs)), seed_(seed) {}

  void SetUp() override {
    if (device::device_count() == 0) GTEST_SKIP() << "no CUDA device: " << needs_ << " need one";
    ctx_.emplace(0);
    limits_ = device::query_limits(0);
  }

  // Kernel k's defaults with `overrides` ("a=1,b=2") applied, run as `variant`.
  CaseResult run(const Kernel& k, const std::string& variant, const std::string& overrides) const {
    Case c{k.name(), variant, Params::defaults(k.axes()), seed_};
    const Params extra = Params::parse(overrides);  // values() refers into it: keep it alive
    for (const auto& [name, value] : extra.values()) c.params.set(name, value);
    RunOptions options;
    options.reference_samples = 256;
    const CaseResult r = run_case(k, c, limits_, options, Ledger{});
    std::cout << "CASE " << c.replay() << " | predicted " << r.prediction.outcome << " | observed " << r.observed.to_string()
              << " | verdict " << r.verdict.to_string() << " | oracle " << r.oracle.to_string() << " | " << r.detail << std::endl;
    return r;
  }

  // How the split reference must have compared: bit for bit, or (a kernel whose compare_policy
  // allows it) either bit for bit or within its stated tolerance.
  enum class Split { exact, exact_or_tolerance };

  // Passed: accepted, the split reference as `split` says with nothing unwritten, every CPU
  // reference sample within its bound, and at least `min_cpu_samples` of them.
  static void expect_pass(const CaseResult& r, std::uint64_t min_cpu_samples = 256, Split split = Split::exact) {
    const OracleResult& o = r.oracle;
    EXPECT_EQ(r.verdict, Verdict::of(Verdict::Kind::pass)) << r.the_case.replay() << ": " << r.verdict.to_string()
                                                            << " " << r.detail;
    EXPECT_EQ(r.observed.kind, Observed::Kind::accept) << r.observed.to_string();
    ASSERT_EQ(o.kind, OracleResult::Kind::compared) << o.to_string();
    EXPECT_TRUE(o.exact || split == Split::exact_or_tolerance) << o.to_string();
    EXPECT_EQ(o.split_mismatches, 0u) << o.to_string();
    EXPECT_EQ(o.unwritten, 0u) << o.to_string();
    EXPECT_EQ(o.cpu_ok, o.cpu_total) << "CPU reference samples failed: " << o.to_string();
    EXPECT_GE(o.cpu_total, min_cpu_samples) << o.to_string();
  }

  std::optional<device::PrimaryContext> ctx_;
  DeviceLimits limits_;

 private:
  std::string needs_;
  std::uint64_t seed_;
};

}  // namespace gridfuzz::testing
