// What the report shows at a glance (issue 18 item 3, issue 13 item 5): rounded numbers, the
// two-axis boundary tables, and plot scripts that draw from any folder. Read from the rows of
// a real H200 nightly (tests/cpu/reports_gate/golden/), where the test can; crafted rows only
// for cases that run lacks (a line failing from its first value, static rows).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>

#include "crafted_rows.hpp"
#include "gridfuzz/reports/csv_reader.hpp"
#include "gridfuzz/reports/gnuplot_script.hpp"
#include "gridfuzz/reports/number_format.hpp"
#include "gridfuzz/reports/plots.hpp"
#include "gridfuzz/reports/point_outcome.hpp"
#include "gridfuzz/reports/report_markdown.hpp"
#include "gridfuzz/reports/two_axis_table.hpp"

namespace gridfuzz::reports {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

// Rows of a real H200 nightly (2026-11-29, the baseline of its day: 315 cases with skipped,
// refused, wrapped and passing rows and several top_k values), kept as a golden file so that a
// regenerated baseline does not change what these tests check. Regenerate with
// `scripts/nightly` on an H200 and copy its sweep.csv here (tests/cpu/reports_gate/golden/README.md).
const fs::path kBaseline = fs::path(GRIDFUZZ_SOURCE_DIR) / "tests/cpu/reports_gate/golden/nvidia-h200-2026-11-29.csv";

std::vector<CsvRow> baseline_rows() { return read_rows(kBaseline); }

TEST(NumberFormat, RoundsToSignificantDigitsWithoutExponent) {
  EXPECT_EQ(significant(106.71753692626953), "106.7");  // the Slowest table printed all of these
  EXPECT_EQ(significant(0.21273600310087204), "0.2127");
  EXPECT_EQ(significant(0.013503), "0.0135");  // trailing zero dropped
  EXPECT_EQ(significant(1066.2093707403596), "1066");
  EXPECT_EQ(significant(123456.7), "123457");  // the integer part is never cut
  EXPECT_EQ(significant(9.99996), "10");        // rounding carries into a new digit
  EXPECT_EQ(significant(4.604584482101256, 3), "4.6");
  EXPECT_EQ(significant(-0.00001), "-0.00001");
  EXPECT_EQ(significant(0), "0");
  EXPECT_EQ(significant(std::numeric_limits<double>::infinity()), "-");
  EXPECT_EQ(significant(std::numeric_limits<double>::quiet_NaN()), "-");
}

TEST(NumberFormat, TheSlowestTableOfARealRunHasNoRawDoubles) {
  ReportInput input;
  input.rows = baseline_rows();
  ASSERT_FALSE(input.rows.empty());
  const std::string md = render_markdown(input);
  const auto start = md.find("## Slowest cases");
  ASSERT_NE(start, std::string::npos);
  const std::string slowest = md.substr(start, md.find("\n## ", start + 1) - start);
  // Every time and GB/s value of the CSV has 15+ digits; none may reach the table.
  for (const CsvRow& row : input.rows)
    for (const char* column : {"time_ms_median", "time_ms_min", "time_ms_max", "gbps"})
      if (row.get(column).size() > 8) {
        EXPECT_EQ(slowest.find(row.get(column)), std::string::npos) << row.get(column);
      }
  // The slowest row's median, rounded, is there.
  double slowest_ms = 0;
  for (const CsvRow& row : input.rows) slowest_ms = std::max(slowest_ms, row.get_double("time_ms_median").value_or(0));
  EXPECT_NE(slowest.find("| 1 | "), std::string::npos);
  const std::string cell = std::string(" ").append(significant(slowest_ms)).append(" |");
  EXPECT_NE(slowest.find(cell), std::string::npos) << slowest;
}

TEST(PointOutcome, TellsRefusedWrappedAndFailedApart) {
  const auto rows = baseline_rows();
  std::set<Outcome> seen;
  for (const CsvRow& row : rows) {
    const PointOutcome o = point_outcome(row);
    seen.insert(o.outcome);
    EXPECT_FALSE(o.predicted_only);  // an H200 run: every row ran or was skipped
    if (row.get("observed").rfind("refuse:", 0) == 0 && row.get("verdict") == "expected-fail") {
      EXPECT_EQ(o.outcome, Outcome::refused) << row.get("replay");
    }
    if (row.get("observed").rfind("fault:", 0) == 0 && row.get("index_wrap").rfind("wrap:", 0) == 0) {
      EXPECT_EQ(o.outcome, Outcome::wrapped) << row.get("replay");
    }
  }
  EXPECT_EQ(seen, (std::set<Outcome>{Outcome::pass, Outcome::refused, Outcome::wrapped, Outcome::skipped}));
  CsvRow fixed = testing::make_row("gguf.moe_vec", "fixed", {{"tokens", "8192"}});
  fixed.set("verdict", "fail:mismatch");
  EXPECT_EQ(point_outcome(fixed).outcome, Outcome::failed);
  CsvRow unplanned = testing::moe_vec_legacy_row(8192, /*on_device=*/false);
  EXPECT_EQ(point_outcome(unplanned), (PointOutcome{Outcome::refused, true}));
}

const TwoAxisTable* find_table(const std::vector<TwoAxisTable>& tables, const std::string& kernel,
                               const std::string& key_axis) {
  for (const TwoAxisTable& t : tables)
    if (t.kernel == kernel && t.key_axis == key_axis) return &t;
  return nullptr;
}

TEST(TwoAxisTable, FirstFailingTokensPerTopKFromARealRun) {
  const auto rows = baseline_rows();
  const auto tables = two_axis_tables(rows);
  const TwoAxisTable* t = find_table(tables, "gguf.moe_vec", "top_k");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->axis, "tokens");
  EXPECT_EQ(t->variants.front(), "legacy");
  ASSERT_EQ(t->entries.size(), 1u);  // the sweep's tokens line runs at the default top_k only
  const TwoAxisEntry& e = t->entries[0];
  EXPECT_EQ(e.key_value, 8);
  // Legacy moe_vec launches grid.z = tokens * top_k: refused from the first tokens past 65535/8.
  const TwoAxisCell& legacy = e.cells.at("legacy");
  EXPECT_TRUE(legacy.observed);
  ASSERT_TRUE(legacy.first_fail.has_value());
  EXPECT_EQ(*legacy.first_fail, 65535 / e.key_value + 1);
  EXPECT_EQ(legacy.last_pass, *legacy.first_fail - 1);
  EXPECT_FALSE(legacy.fails_from_start);
  EXPECT_FALSE(legacy.model_differs);
  EXPECT_EQ(legacy.rule, "refuse:grid.z");
  // Fixed ran only at the default tokens on that line: it passed there, nothing more is known.
  const TwoAxisCell& fixed = e.cells.at("fixed");
  EXPECT_FALSE(fixed.first_fail.has_value());
  EXPECT_EQ(cell_text(fixed), "no failure up to " + std::to_string(fixed.max_tested));
  // The random cases' top_k values have no tokens line; the table says which.
  EXPECT_FALSE(t->values_without_line.empty());
  EXPECT_EQ(std::count(t->values_without_line.begin(), t->values_without_line.end(), 8), 0);

  ReportInput input;
  input.rows = rows;
  const std::string md = render_markdown(input);
  EXPECT_NE(md.find("### gguf.moe_vec on NVIDIA H200: first failing tokens for each top_k"), std::string::npos);
  EXPECT_NE(md.find("| 8 | " + cell_text(legacy) + " | " + cell_text(fixed) + " |"), std::string::npos) << md;
}

TEST(TwoAxisTable, OneEntryPerValueOfTheOtherAxisAndLinesFailingFromTheStart) {
  // tokens lines at vocab 32000 and 128256 (the dense head: refused past tokens*vocab limits),
  // and at vocab 262144 one that fails from its first value (something else is too large there).
  std::vector<CsvRow> rows;
  const auto add = [&](const std::string& variant, std::int64_t vocab, std::int64_t tokens, bool fails,
                       bool on_device) {
    CsvRow row = testing::make_row("affine.qmm", variant, {{"tokens", std::to_string(tokens)},
                                                          {"vocab", std::to_string(vocab)}});
    if (fails) {
      row.set("predicted", "refuse:grid.y");
      row.set("observed", "refuse:CUDA_ERROR_INVALID_VALUE");
      row.set("verdict", "expected-fail");
    }
    if (!on_device) {
      row.set("observed", "static");
      row.set("verdict", "static");
    }
    rows.push_back(row);
  };
  for (std::int64_t tokens : {16743, 16744, 16745}) {
    add("legacy", 128256, tokens, tokens >= 16744, true);
    add("fixed", 128256, tokens, false, false);
  }
  for (std::int64_t tokens : {67108, 67109}) add("legacy", 32000, tokens, tokens >= 67109, true);
  for (std::int64_t tokens : {1, 2}) add("legacy", 262144, tokens, true, true);
  const auto tables = two_axis_tables(rows);
  const TwoAxisTable* t = find_table(tables, "affine.qmm", "vocab");
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->entries.size(), 3u);
  EXPECT_EQ(t->entries[0].key_value, 32000);
  EXPECT_EQ(t->entries[1].key_value, 128256);
  EXPECT_EQ(t->entries[2].key_value, 262144);
  EXPECT_EQ(t->entries[0].cells.at("legacy").first_fail, 67109);
  EXPECT_EQ(t->entries[0].cells.count("fixed"), 0u);
  EXPECT_EQ(t->entries[1].cells.at("legacy").first_fail, 16744);
  const TwoAxisCell& fixed = t->entries[1].cells.at("fixed");
  EXPECT_FALSE(fixed.observed);
  EXPECT_EQ(cell_text(fixed), "no failure up to 16745 (model)");
  const TwoAxisCell& start = t->entries[2].cells.at("legacy");
  EXPECT_TRUE(start.fails_from_start);
  EXPECT_EQ(cell_text(start), "all fail from 1 refuse:grid.y");
  // A model that disagrees with the device is named in the cell.
  rows[0].set("predicted", "refuse:grid.y");  // legacy 16743: predicted refused, ran fine
  const auto disagreeing = two_axis_tables(rows);
  const TwoAxisCell& cell = find_table(disagreeing, "affine.qmm", "vocab")->entries[1].cells.at("legacy");
  EXPECT_TRUE(cell.model_differs);
  EXPECT_EQ(cell_text(cell), "16744 refuse:grid.y (model: 16743)");
}

// Runs `gnuplot SCRIPT` in `cwd`; true when it exits 0.
bool gnuplot_in(const fs::path& cwd, const std::string& script) {
  const std::string command = "cd '" + cwd.string() + "' && gnuplot '" + script + "' >/dev/null 2>&1";
  return std::system(command.c_str()) == 0;
}

TEST(PlotScripts, DrawFromAnyFolderAndAfterTheReportMoved) {
  TempDir dir;
  const fs::path report = dir / "report";
  const PlotResult result = write_plots(baseline_rows(), {report, "/nonexistent/gnuplot"});
  ASSERT_FALSE(result.plots.empty());
  std::set<std::string> kinds;
  for (const Plot& p : result.plots) {
    for (const char* kind : {"-summary.png", "-timing.png", "-tokens-by-"})
      if (p.png.find(kind) != std::string::npos) kinds.insert(kind);
    const fs::path script = report / fs::path(p.png).replace_extension(".gp");
    const std::string text = testing::read_text(script);
    // Every file the script names is beside it: here.'NAME', never a path relative to a folder.
    EXPECT_NE(text.find("here = ARG0[1:gf_cut]"), std::string::npos);
    EXPECT_NE(text.find("set output here.'" + fs::path(p.png).filename().string() + "'"), std::string::npos);
    EXPECT_EQ(text.find("'plots/"), std::string::npos) << script;
    // The folder's absolute path appears once: the fallback for a script piped into gnuplot.
    const std::string folder = fs::absolute(report / "plots").string();
    const auto fallback = text.find(folder);
    ASSERT_NE(fallback, std::string::npos) << script;
    EXPECT_EQ(text.find(folder, fallback + 1), std::string::npos) << script;
    EXPECT_EQ(text.rfind("  here = '", fallback), fallback - 10) << script;
  }
  EXPECT_EQ(kinds.size(), 3u) << "summary, timing and two-axis pictures from the H200 run";

  if (!find_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed (Debian package gnuplot-nox)";
  const Plot& summary = result.plots.front();
  const fs::path png = report / summary.png;
  const std::string name = fs::path(summary.png).filename().replace_extension(".gp").string();
  // From the report folder, from plots/ itself, and by absolute path from the root.
  for (const auto& [cwd, script] : std::vector<std::pair<fs::path, std::string>>{
           {report, "plots/" + name}, {report / "plots", name}, {"/", (report / "plots" / name).string()}}) {
    fs::remove(png);
    EXPECT_TRUE(gnuplot_in(cwd, script)) << "gnuplot " << script << " in " << cwd;
    EXPECT_TRUE(fs::exists(png)) << "gnuplot " << script << " in " << cwd;
  }
  // Moved (a downloaded CI artifact): the script draws beside itself, in the new place.
  const fs::path moved = dir / "moved";
  fs::rename(report, moved);
  const fs::path moved_png = moved / summary.png;
  fs::remove(moved_png);
  EXPECT_TRUE(gnuplot_in(dir.path(), "moved/plots/" + name));
  EXPECT_TRUE(fs::exists(moved_png));
  EXPECT_GT(fs::file_size(moved_png), 10000u);
  EXPECT_FALSE(fs::exists(report)) << "nothing written to the old place";
}

TEST(PlotScripts, SummaryMarksPointsThatFailThroughAnotherAxis) {
  // A tokens line whose first value fails already (rows too large for a 32-bit offset, as in the
  // H200 run's rows line from 192152): those points are grey, "through another axis", and the
  // row's label says so, never "fails from 64" as if tokens broke them.
  std::vector<CsvRow> rows;
  for (std::int64_t tokens : {64, 65, 66, 8192}) {
    CsvRow row = testing::make_row("gguf.moe_vec", "legacy", {{"tokens", std::to_string(tokens)}, {"rows", "192152"}});
    row.set("index_wrap", "wrap:expert_base");
    row.set("observed", "fault:CUDA_ERROR_ILLEGAL_ADDRESS");
    row.set("verdict", "expected-fail");
    rows.push_back(row);
  }
  CsvRow fixed = testing::make_row("gguf.moe_vec", "fixed", {{"tokens", "64"}, {"rows", "192152"}});
  rows.push_back(fixed);
  TempDir dir;
  write_plots(rows, {dir.path(), "/nonexistent/gnuplot"});
  const std::string data = testing::read_text(dir / "plots/gguf.moe_vec-nvidia-h200-summary.dat");
  const std::string script = testing::read_text(dir / "plots/gguf.moe_vec-nvidia-h200-summary.gp");
  EXPECT_NE(data.find("# 'tokens': wrapped, through another axis"), std::string::npos) << data;
  EXPECT_EQ(data.find("# 'tokens': wrapped\n"), std::string::npos) << data;
  EXPECT_NE(script.find("'legacy: fails from 64 (another axis)'"), std::string::npos) << script;
  EXPECT_NE(script.find("'fixed: no failure up to 64'"), std::string::npos) << script;
  EXPECT_NE(script.find("grey: fails through another axis"), std::string::npos) << script;
  // Both variants on one shared value axis: one tic per value, each once.
  EXPECT_NE(script.find("set xtics (\"64\" 0, \"65\" 1, \"66\" 2, \"8192\" 3.8)"), std::string::npos) << script;
}

}  // namespace
}  // namespace gridfuzz::reports
