// The self-test kernel's plans: the legacy launch is refused exactly past 65535 rows, the fixed
// one never; its split pieces cover every row once.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "gridfuzz/predictor.hpp"
#include "selftest_kernels.hpp"

using namespace gridfuzz;

namespace {
const DeviceLimits kH200 = *device_preset("sm_90");

Prediction predict_rows(const Kernel& k, const std::string& variant, std::uint64_t rows) {
  Params p = Params::defaults(k.axes());
  p.set("rows", std::to_string(rows));
  return predict(k.plan(p, variant, kH200), kH200);
}
}  // namespace

TEST(SelftestFlatYZ, LegacyRefusedFirstAt65536Rows) {
  const auto k = selftest::make_flat_index_yz();
  EXPECT_EQ(predict_rows(*k, "legacy", 65535).outcome, "accept");
  EXPECT_EQ(predict_rows(*k, "legacy", 65536).outcome, "refuse:grid.z");
}

RC_GTEST_PROP(SelftestFlatYZProperty, FixedNeverRefusedAndSplitCoversEveryRowOnce, ()) {
  const auto k = selftest::make_flat_index_yz();
  const std::uint64_t rows = *rc::gen::inRange<std::uint64_t>(1, 1ull << 31);
  RC_ASSERT(predict_rows(*k, "fixed", rows).accepted());
  Params p = Params::defaults(k->axes());
  p.set("rows", std::to_string(rows));
  std::uint64_t next = 0;
  for (const auto& piece : k->bind(p, "fixed")->split(kH200)) {
    RC_ASSERT(piece.begin == next);
    RC_ASSERT(piece.end - piece.begin <= kH200.max_grid_z);
    next = piece.end;
  }
  RC_ASSERT(next == rows);
}
