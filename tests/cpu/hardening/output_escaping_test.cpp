// Rows that no reader would accept (built directly, as a future schema minor or a plugin might
// produce them) still cannot break out of the outputs: no command in a gnuplot script, well-formed
// JUnit XML, finite JUnit times.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "crafted_rows.hpp"
#include "gridfuzz/reports/junit.hpp"
#include "gridfuzz/reports/plots.hpp"
#include "gridfuzz/reports/text_escape.hpp"

namespace fs = std::filesystem;

namespace gridfuzz::reports {
namespace {

struct TempDir {
  fs::path path = fs::temp_directory_path() /
                  ("gridfuzz-escape-" + std::to_string(getpid()) + "-" +
                   std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// Timed rows of moe_vec over tokens, with `variant` and `observed` as given.
std::vector<CsvRow> evil_rows(const std::string& variant, const std::string& observed) {
  std::vector<CsvRow> rows;
  for (std::int64_t tokens : {8190, 8191, 8192, 8193, 8194}) {
    for (std::int64_t top_k : {4, 8}) {
      CsvRow row = testing::make_row("gguf.moe_vec", variant,
                                     {{"tokens", std::to_string(tokens)}, {"top_k", std::to_string(top_k)}});
      row.set("observed", observed);
      testing::set_timing(row, 1.0 + tokens * 1e-4, 1.0, 2.0);
      rows.push_back(row);
    }
  }
  return rows;
}

TEST(OutputEscaping, NoFieldBecomesAGnuplotCommand) {
  TempDir tmp;
  const fs::path witness = tmp.path / "PWNED";
  const std::string payload = "legacy\n!touch " + witness.string() + "\nset output '" + witness.string() + "'\n";
  PlotOptions options{tmp.path / "report", "gnuplot"};
  const PlotResult result = write_plots(evil_rows(payload, "accept"), options);
  ASSERT_FALSE(result.plots.empty());
  std::size_t scripts = 0;
  for (const auto& entry : fs::directory_iterator(tmp.path / "report" / "plots")) {
    if (entry.path().extension() != ".gp" && entry.path().extension() != ".dat") continue;
    scripts += entry.path().extension() == ".gp";
    std::istringstream lines(slurp(entry.path()));
    for (std::string line; std::getline(lines, line);) {
      EXPECT_NE(line.rfind("!", 0), 0u) << entry.path() << ": " << line;
      EXPECT_NE(line.rfind("set output '" + witness.string(), 0), 0u) << entry.path() << ": " << line;
    }
  }
  EXPECT_GT(scripts, 0u);
  // With gnuplot installed the scripts also ran: nothing was created by them.
  EXPECT_FALSE(fs::exists(witness));
}

TEST(OutputEscaping, JunitIsWellFormedForAnyBytes) {
  std::vector<CsvRow> rows = evil_rows(std::string("fixed\x1b[31m\0x", 11), "host-error:bad \xFF\xFE bytes\x01");
  rows.front().set("verdict", "fail:mismatch");
  rows.front().set("time_ms_median", "inf");
  const std::string xml = render_junit(rows);
  std::istringstream lines(xml);
  for (std::string line; std::getline(lines, line);) EXPECT_TRUE(is_printable_utf8(line)) << terminal_text(line);
  EXPECT_EQ(xml.find("inf"), std::string::npos) << "JUnit times must be finite";

  // A real XML parser, where the machine has one (Debian libxml2-utils, installed by scripts/test).
  if (std::system("command -v xmllint >/dev/null 2>&1") != 0) GTEST_SKIP() << "xmllint not installed";
  TempDir tmp;
  std::ofstream(tmp.path / "junit.xml", std::ios::binary) << xml;
  const std::string check = "xmllint --noout '" + (tmp.path / "junit.xml").string() + "' 2>&1";
  EXPECT_EQ(std::system(check.c_str()), 0) << "xmllint rejects the JUnit file";
}

}  // namespace
}  // namespace gridfuzz::reports
