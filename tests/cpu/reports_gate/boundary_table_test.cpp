// The boundary table from crafted rows: last pass / first fail per axis, predicted and observed,
// and the rule in words.
#include <gtest/gtest.h>

#include <algorithm>

#include "crafted_rows.hpp"
#include "gridfuzz/reports/boundary_table.hpp"
#include "gridfuzz/reports/case_outcome.hpp"

namespace gridfuzz::reports {
namespace {

using testing::moe_vec_legacy_row;

const BoundaryLine* line_of(const std::vector<BoundaryLine>& table, const std::string& axis) {
  const auto it = std::find_if(table.begin(), table.end(), [&](const BoundaryLine& b) { return b.axis == axis; });
  return it == table.end() ? nullptr : &*it;
}

TEST(BoundaryTable, LegacyMoeVecTokens8190To8194) {
  std::vector<CsvRow> rows;
  for (std::int64_t t = 8190; t <= 8194; ++t) rows.push_back(moe_vec_legacy_row(t));
  const auto table = boundary_table(rows);
  ASSERT_EQ(table.size(), 1u) << "only tokens varies";
  const BoundaryLine& b = table[0];
  EXPECT_EQ(b.kernel, "gguf.moe_vec");
  EXPECT_EQ(b.variant, "legacy");
  EXPECT_EQ(b.device, "NVIDIA H200");
  EXPECT_EQ(b.axis, "tokens");
  EXPECT_EQ(b.points.size(), 5u);
  EXPECT_EQ(b.min_value, 8190);
  EXPECT_EQ(b.max_value, 8194);
  EXPECT_EQ(b.predicted.last_pass, 8191);
  EXPECT_EQ(b.predicted.first_fail, 8192);
  EXPECT_EQ(b.predicted.rule, "grid.z 65536 > 65535");
  EXPECT_FALSE(b.predicted.passes_again_at.has_value());
  ASSERT_TRUE(b.observed.has_value());
  EXPECT_EQ(b.observed->last_pass, 8191);
  EXPECT_EQ(b.observed->first_fail, 8192);
  EXPECT_EQ(b.observed->rule, "refuse:CUDA_ERROR_INVALID_VALUE");
  EXPECT_NE(b.along.find("top_k=8"), std::string::npos) << b.along;
  EXPECT_EQ(b.along.find("tokens="), std::string::npos) << b.along;
}

TEST(BoundaryTable, ObservedAndPredictedCanDisagree) {
  // The device accepts 8192 tokens (a model mismatch): the observed boundary is one step later.
  std::vector<CsvRow> rows;
  for (std::int64_t t = 8190; t <= 8194; ++t) {
    CsvRow row = moe_vec_legacy_row(t);
    if (t == 8192) {
      row.set("observed", "accept");
      row.set("oracle", "exact");
      row.set("verdict", "model-mismatch");
    }
    rows.push_back(row);
  }
  const auto table = boundary_table(rows);
  ASSERT_EQ(table.size(), 1u);
  EXPECT_EQ(table[0].predicted.first_fail, 8192);
  ASSERT_TRUE(table[0].observed.has_value());
  EXPECT_EQ(table[0].observed->last_pass, 8192);
  EXPECT_EQ(table[0].observed->first_fail, 8193);
}

TEST(BoundaryTable, StaticRowsHaveNoObservedSide) {
  std::vector<CsvRow> rows;
  for (std::int64_t t = 8190; t <= 8194; ++t) rows.push_back(moe_vec_legacy_row(t, /*on_device=*/false));
  const auto table = boundary_table(rows);
  ASSERT_EQ(table.size(), 1u);
  EXPECT_EQ(table[0].predicted.first_fail, 8192);
  EXPECT_FALSE(table[0].observed.has_value());
}

TEST(BoundaryTable, NoFailureMeansNoFirstFailAndLastPassIsTheLargest) {
  std::vector<CsvRow> rows;
  for (std::int64_t t : {8190, 8192, 8194}) {
    CsvRow row = testing::make_row("gguf.moe_vec", "fixed", {{"tokens", std::to_string(t)}, {"top_k", "8"}});
    rows.push_back(row);
  }
  const auto table = boundary_table(rows);
  ASSERT_EQ(table.size(), 1u);
  EXPECT_FALSE(table[0].predicted.first_fail.has_value());
  EXPECT_EQ(table[0].predicted.last_pass, 8194);
}

TEST(BoundaryTable, EachAxisOnItsOwnLineAndGroupsStaySeparate) {
  // A cross around the default (tokens 64, top_k 8): tokens varies with top_k 8, top_k varies with
  // tokens 64; plus another variant and another device that must not mix in.
  std::vector<CsvRow> rows;
  auto at = [](std::int64_t tokens, std::int64_t top_k, const std::string& variant = "legacy") {
    CsvRow row = testing::make_row("gguf.moe_vec", variant, {{"tokens", std::to_string(tokens)}, {"top_k", std::to_string(top_k)}});
    if (tokens * top_k > 65535) {
      row.set("predicted", "refuse:grid.z");
      row.set("observed", "refuse:CUDA_ERROR_INVALID_VALUE");
      row.set("verdict", "expected-fail");
    }
    return row;
  };
  rows.push_back(at(64, 8));
  rows.push_back(at(8191, 8));
  rows.push_back(at(8192, 8));
  rows.push_back(at(64, 64));
  rows.push_back(at(64, 1));
  rows.push_back(at(9000, 8, "fixed"));  // alone on its line in its group: no line
  CsvRow other_device = at(8192, 8);
  other_device.set("device", "NVIDIA A100");
  rows.push_back(other_device);

  const auto table = boundary_table(rows);
  ASSERT_EQ(table.size(), 2u);
  const BoundaryLine* tokens = line_of(table, "tokens");
  const BoundaryLine* top_k = line_of(table, "top_k");
  ASSERT_TRUE(tokens && top_k);
  EXPECT_EQ(tokens->device, "NVIDIA H200");
  EXPECT_EQ(tokens->points.size(), 3u);
  EXPECT_EQ(tokens->predicted.last_pass, 8191);
  EXPECT_EQ(tokens->predicted.first_fail, 8192);
  EXPECT_EQ(top_k->points.size(), 3u);
  EXPECT_FALSE(top_k->predicted.first_fail.has_value()) << "64*64 = 4096 pairs fit";
}

TEST(BoundaryTable, PassesAgainAboveTheFirstFailIsRecorded) {
  // A wrapped 32-bit count that the device accepts again further on (the dense LM head's bug).
  std::vector<CsvRow> rows;
  for (std::int64_t t : {100, 200, 300}) {
    CsvRow row = testing::make_row("affine.qmm", "legacy", {{"tokens", std::to_string(t)}, {"vocab", "32000"}});
    if (t == 200) {
      row.set("predicted", "refuse:grid.zero");
      row.set_int("grid_x", 250);
      row.set_int("grid_y", 1);
      row.set_int("grid_z", 0);
      row.set_int("block_x", 128);
      row.set_int("block_y", 1);
      row.set_int("block_z", 1);
      row.set("observed", "refuse:CUDA_ERROR_INVALID_VALUE");
      row.set("verdict", "expected-fail");
    }
    rows.push_back(row);
  }
  const auto table = boundary_table(rows);
  ASSERT_EQ(table.size(), 1u);
  EXPECT_EQ(table[0].predicted.first_fail, 200);
  EXPECT_EQ(table[0].predicted.passes_again_at, 300);
  EXPECT_EQ(table[0].predicted.rule, "grid.zero (250,1,0)");
}

TEST(CaseOutcome, RuleTextFallsBackToThePredictedText) {
  CsvRow row = moe_vec_legacy_row(8192);
  row.clear("grid_z");  // no numbers: the text is all there is
  EXPECT_EQ(predicted_rule_text(row), "refuse:grid.z");
  CsvRow host = testing::make_row("affine.qmm", "legacy", {{"tokens", "1"}});
  host.set("predicted", "host-error:l = 0 divides by zero");
  EXPECT_EQ(predicted_rule_text(host), "host-error:l = 0 divides by zero");
}

TEST(CaseOutcome, DeviceSlugs) {
  EXPECT_EQ(device_slug("NVIDIA H200"), "nvidia-h200");
  EXPECT_EQ(device_slug("preset:sm_90"), "preset-sm-90");
  EXPECT_EQ(device_slug("  NVIDIA GeForce RTX 4090 "), "nvidia-geforce-rtx-4090");
  EXPECT_EQ(device_slug(""), "unknown-device");
}

TEST(CaseOutcome, AxesComeFromTheReplayIncludingAxesWithoutAColumn) {
  CsvRow row = testing::make_row("gguf.mmvq", "legacy", {{"nvecs", "65536"}, {"rows", "1408"}});
  const auto axes = case_axes(row);
  ASSERT_EQ(axes.count("nvecs"), 1u);
  EXPECT_EQ(axes.at("nvecs"), "65536");
  row.set("replay", "not a replay string");
  const auto from_columns = case_axes(row);
  EXPECT_EQ(from_columns.count("nvecs"), 0u);
  EXPECT_EQ(from_columns.at("rows"), "1408");
}

}  // namespace
}  // namespace gridfuzz::reports
