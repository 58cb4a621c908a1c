#pragma once
// Shared set-up of the affine GPU tests: skip without a device, one primary context, run a case
// through the real runner (prediction, launch, split reference, CPU reference) with an empty ledger.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "gridfuzz/affine/register.hpp"
#include "gridfuzz/device/context.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/engine/runner.hpp"
#include "kernel_gpu_test.hpp"

namespace gridfuzz::affine::test {

class AffineGpuTest : public gridfuzz::testing::KernelGpuTest {
 protected:
  AffineGpuTest() : KernelGpuTest("the affine GPU tests", 7) {}

  // The case as given (no overrides), with its own seed and the affine line.
  CaseResult run(const Kernel& kernel, const std::string& variant, const Params& params, std::uint64_t seed = 7) {
    Case c{kernel.name(), variant, params, seed};
    RunOptions options;
    options.reference_samples = 256;
    CaseResult r = run_case(kernel, c, limits_, options, Ledger{});
    std::cout << "[affine] " << c.replay() << " -> predicted " << r.prediction.outcome << " ("
              << r.prediction.index_wrap() << "), observed " << r.observed.to_string() << ", oracle " << r.oracle.to_string() << ", verdict "
              << r.verdict.to_string() << (r.detail.empty() ? "" : " | " + r.detail) << std::endl;
    return r;
  }

  static Params with(const Kernel& k, std::initializer_list<std::pair<const char*, std::string>> values) {
    Params p = Params::defaults(k.axes());
    for (const auto& [name, value] : values) p.set(name, value);
    return p;
  }
};

inline bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace gridfuzz::affine::test
