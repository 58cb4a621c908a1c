// The Markdown report, shard merging and the plots (which must never fail a report).
#include <gtest/gtest.h>

#include "crafted_rows.hpp"
#include "gridfuzz/reports/csv_reader.hpp"
#include "gridfuzz/reports/plots.hpp"
#include "gridfuzz/reports/report_markdown.hpp"
#include "gridfuzz/reports/row_set.hpp"

namespace gridfuzz::reports {
namespace {

using testing::moe_vec_legacy_row;
using testing::TempDir;

TEST(RowSet, MergesTwoShardFiles) {
  TempDir dir;
  std::vector<CsvRow> shard1, shard2;
  for (std::int64_t t = 8190; t <= 8194; ++t) (t % 2 ? shard1 : shard2).push_back(moe_vec_legacy_row(t));
  testing::write_csv(dir / "shard1.csv", shard1);
  testing::write_csv(dir / "shard2.csv", shard2);
  const RowSet set = load_row_set({dir / "shard1.csv", dir / "shard2.csv"});
  EXPECT_EQ(set.rows.size(), 5u);
  EXPECT_EQ(set.sources.size(), 2u);
  EXPECT_TRUE(set.notes.empty());

  // The merged rows give the boundary that neither shard shows alone.
  ReportInput input;
  input.rows = set.rows;
  input.sources = set.sources;
  const std::string md = render_markdown(input);
  EXPECT_NE(md.find("| tokens | 8190..8194 (5) | 8191 | **8192** | `grid.z 65536 > 65535`"), std::string::npos) << md;
  ReportInput only_one;
  only_one.rows = read_rows(dir / "shard1.csv");  // 8191, 8193: the last pass and first fail differ
  EXPECT_EQ(render_markdown(only_one).find("**8192**"), std::string::npos);
}

TEST(RowSet, ADuplicateCaseKeepsTheLastFilesRowAndSaysSo) {
  TempDir dir;
  CsvRow first = moe_vec_legacy_row(64);
  CsvRow again = first;
  again.set("verdict", "fail:mismatch");
  again.set("oracle", "mismatch:1");
  testing::write_csv(dir / "a.csv", {first});
  testing::write_csv(dir / "b.csv", {again});
  const RowSet set = load_row_set({dir / "a.csv", dir / "b.csv"});
  ASSERT_EQ(set.rows.size(), 1u);
  EXPECT_EQ(set.rows[0].get("verdict"), "fail:mismatch");
  ASSERT_EQ(set.notes.size(), 1u);
  EXPECT_NE(set.notes[0].find("different verdict"), std::string::npos) << set.notes[0];
}

TEST(RowSet, UnreadableFilesThrowCsvError) {
  TempDir dir;
  EXPECT_THROW(load_row_set({dir / "missing.csv"}), CsvError);
  testing::write_text(dir / "corrupt.csv", "schema,run_id\n1.0,\"unterminated\n");
  EXPECT_THROW(load_row_set({dir / "corrupt.csv"}), CsvError);
}

TEST(Markdown, SectionsCountsFailuresAndSlowest) {
  std::vector<CsvRow> rows;
  for (std::int64_t t = 8190; t <= 8194; ++t) rows.push_back(moe_vec_legacy_row(t));
  CsvRow fail = testing::make_row("gguf.moe_vec", "fixed", {{"tokens", "64"}});
  fail.set("oracle", "mismatch:7");
  fail.set("verdict", "fail:mismatch");
  rows.push_back(fail);
  CsvRow slow = testing::make_row("gguf.moe_vec", "fixed", {{"tokens", "4096"}});
  testing::set_timing(slow, 40.5, 40.1, 41.0);
  CsvRow fast = testing::make_row("gguf.moe_vec", "fixed", {{"tokens", "8"}});
  testing::set_timing(fast, 0.1, 0.09, 0.12);
  rows.push_back(fast);
  rows.push_back(slow);
  ReportInput input;
  input.rows = rows;
  const std::string md = render_markdown(input);
  // Legacy: 2 pass, 3 expected-fail; fixed: 2 pass, 1 fail.
  EXPECT_NE(md.find("| gguf.moe_vec | legacy | NVIDIA H200 | 5 | 2 | 3 | 0 | 0 | 0 | 0 | 0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| gguf.moe_vec | fixed | NVIDIA H200 | 3 | 2 | 0 | 1 | 0 | 0 | 0 | 0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("`fail:mismatch` 1"), std::string::npos) << md;
  EXPECT_NE(md.find(fail.get("replay")), std::string::npos);
  const auto slow_at = md.find("| 1 | gguf.moe_vec | fixed | NVIDIA H200 | 40.5 |");
  const auto fast_at = md.find("| 2 | gguf.moe_vec | fixed | NVIDIA H200 | 0.1 |");
  EXPECT_NE(slow_at, std::string::npos) << md;
  EXPECT_NE(fast_at, std::string::npos) << md;
}

// A race's row is listed with the failures, its oracle text (the self-check's count) in the table,
// and a line says what fail:nondeterministic means.
TEST(Markdown, ListsARaceAndSaysWhatItIs) {
  CsvRow race = testing::make_row("gguf.moe_vec", "fixed", {{"tokens", "64"}});
  race.set("oracle", "split:exact:24 unwritten:0 cpu:250/256 self:differ:24");
  race.set("verdict", "fail:nondeterministic");
  ReportInput input;
  input.rows = {race, testing::make_row("gguf.moe_vec", "fixed", {{"tokens", "8"}})};
  const std::string md = render_markdown(input);
  EXPECT_NE(md.find("`fail:nondeterministic` 1"), std::string::npos) << md;
  EXPECT_NE(md.find("| `fail:nondeterministic` | gguf.moe_vec | fixed |"), std::string::npos) << md;
  EXPECT_NE(md.find("self:differ:24"), std::string::npos) << md;
  EXPECT_NE(md.find("1 of them `fail:nondeterministic`"), std::string::npos) << md;
}

TEST(Markdown, CellsEscapePipes) { EXPECT_EQ(markdown_cell("a|b\nc"), "a\\|b c"); }

std::vector<CsvRow> map_rows() {
  // tokens x top_k around tokens*top_k = 65535, the legacy moe_vec grid.z limit.
  std::vector<CsvRow> rows;
  for (std::int64_t top_k : {1, 2, 4, 8, 16})
    for (std::int64_t tokens : {4096, 8191, 8192, 16384, 65535, 65536}) {
      CsvRow row = testing::make_row("gguf.moe_vec", "legacy",
                                     {{"tokens", std::to_string(tokens)}, {"top_k", std::to_string(top_k)}});
      if (tokens * top_k > 65535) {
        row.set("predicted", "refuse:grid.z");
        row.set("observed", "refuse:CUDA_ERROR_INVALID_VALUE");
        row.set("verdict", "expected-fail");
      }
      rows.push_back(row);
    }
  return rows;
}

TEST(Plots, MissingGnuplotIsANoteNotAFailure) {
  TempDir dir;
  PlotOptions options{dir.path(), "/nonexistent/gnuplot"};
  const PlotResult result = write_plots(map_rows(), options);
  ASSERT_FALSE(result.plots.empty());
  for (const Plot& p : result.plots) EXPECT_FALSE(p.drawn) << p.title;
  ASSERT_FALSE(result.notes.empty());
  EXPECT_NE(result.notes[0].find("gnuplot not found"), std::string::npos);
  // The script and data are there to draw later.
  const std::string stem = "gguf.moe_vec-nvidia-h200-summary";
  const std::string script = testing::read_text(dir / ("plots/" + stem + ".gp"));
  EXPECT_NE(script.find("here.'" + stem + ".dat'"), std::string::npos) << script;
  EXPECT_TRUE(std::filesystem::exists(dir / ("plots/" + stem + ".dat")));
  EXPECT_FALSE(std::filesystem::exists(dir / ("plots/" + stem + ".png")));

  ReportInput input;
  input.rows = map_rows();
  input.plots = result.plots;
  EXPECT_NE(render_markdown(input).find("Not drawn (no gnuplot)"), std::string::npos);
}

TEST(Plots, DrawsPngAndSvgWhenGnuplotIsPresent) {
  if (!find_program("gnuplot")) GTEST_SKIP() << "gnuplot is not installed (Debian package gnuplot-nox)";
  TempDir dir;
  auto rows = map_rows();
  // Timing curves: legacy vs fixed along tokens.
  for (std::int64_t tokens : {8, 64, 512}) {
    for (const char* variant : {"legacy", "fixed"}) {
      CsvRow row = testing::make_row("gguf.moe_vec", variant, {{"tokens", std::to_string(tokens)}, {"top_k", "8"}});
      const double ms = tokens * (variant[0] == 'l' ? 0.011 : 0.010);
      testing::set_timing(row, ms, ms * 0.98, ms * 1.03);
      rows.push_back(row);
    }
  }
  const PlotResult result = write_plots(rows, {dir.path(), "gnuplot"});
  // The kernel's summary, its tokens x top_k boundary, the timing curves with their ratio panel.
  ASSERT_EQ(result.plots.size(), 3u);
  EXPECT_NE(result.plots[0].png.find("summary"), std::string::npos);
  EXPECT_NE(result.plots[1].png.find("tokens-by-top_k"), std::string::npos);
  EXPECT_NE(result.plots[2].png.find("timing"), std::string::npos);
  EXPECT_NE(testing::read_text(dir / "plots/moe_vec-nvidia-h200-timing.dat").find("# ratio 'fixed / legacy'"),
            std::string::npos);
  for (const Plot& p : result.plots) {
    EXPECT_TRUE(p.drawn) << p.title << (result.notes.empty() ? "" : ": " + result.notes[0]);
    EXPECT_GT(std::filesystem::file_size(dir / p.png), 1000u) << p.png;
    const std::string svg = testing::read_text(dir / p.svg);
    EXPECT_NE(svg.find("<svg"), std::string::npos) << p.svg;
  }
  EXPECT_TRUE(result.notes.empty()) << result.notes[0];
}

}  // namespace
}  // namespace gridfuzz::reports
