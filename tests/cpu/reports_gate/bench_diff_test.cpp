// Google Benchmark's JSON read back (repetitions grouped, aggregates left out, units converted),
// the benchmarks compared by compare_timing, and `gridfuzz bench-diff`'s table and exit codes.
#include <gtest/gtest.h>

#include <sstream>

#include "../../support/run_gridfuzz.hpp"
#include "crafted_rows.hpp"
#include "gridfuzz/reports/bench_diff.hpp"
#include "gridfuzz/reports/bench_json.hpp"

namespace gridfuzz::reports {
namespace {

using testing::TempDir;

// One iteration entry as Google Benchmark 1.8 writes it (--benchmark_repetitions=N).
std::string entry(const std::string& name, int repetition, double real_time, const std::string& unit = "us") {
  std::ostringstream out;
  out << R"({"name": ")" << name << R"(", "family_index": 0, "per_family_instance_index": 0, "run_name": ")" << name
      << R"(", "run_type": "iteration", "repetitions": 5, "repetition_index": )" << repetition
      << R"(, "threads": 1, "iterations": 1000, "real_time": )" << real_time << R"(, "cpu_time": )" << real_time
      << R"(, "time_unit": ")" << unit << R"("})";
  return out.str();
}

// The aggregates Google Benchmark appends (report_aggregates_only=false): a mean far from the
// repetitions, so a reader that took it in would be caught.
std::string aggregate(const std::string& name, const std::string& what, double real_time) {
  return R"({"name": ")" + name + "_" + what + R"(", "run_name": ")" + name +
         R"(", "run_type": "aggregate", "aggregate_name": ")" + what + R"(", "repetitions": 5, "iterations": 5,
         "real_time": )" + std::to_string(real_time) + R"(, "cpu_time": 1, "time_unit": "us"})";
}

std::string bench_json(const std::vector<std::string>& entries) {
  std::string text = R"({"context": {"date": "2026-12-03T10:00:00+00:00", "num_cpus": 16, "library_build_type": "release"},
  "benchmarks": [)";
  for (std::size_t i = 0; i < entries.size(); ++i) text += (i ? ",\n" : "\n") + entries[i];
  return text + "]}\n";
}

// A benchmark's five repetitions at `scale` times these real times (us).
std::vector<std::string> five(const std::string& name, double scale, const std::string& unit = "us") {
  const double times[] = {100.0, 101.0, 99.5, 100.5, 100.2};
  std::vector<std::string> out;
  for (int i = 0; i < 5; ++i) out.push_back(entry(name, i, times[i] * scale, unit));
  out.push_back(aggregate(name, "mean", 5000));
  out.push_back(aggregate(name, "stddev", 0.5));
  return out;
}

std::vector<std::string> joined(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(BenchJson, GroupsRepetitionsByRunNameAndConvertsUnits) {
  const auto runs = parse_benchmark_json(bench_json(joined(five("BM_qmv/4096", 1.0), five("BM_qmm/64", 1000.0, "ns"))), "t");
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].name, "BM_qmv/4096");
  ASSERT_EQ(runs[0].real_ms.size(), 5u) << "the aggregates are left out";
  EXPECT_DOUBLE_EQ(runs[0].real_ms[0], 0.1);  // 100 us
  EXPECT_DOUBLE_EQ(runs[0].real_ms[2], 0.0995);
  EXPECT_DOUBLE_EQ(runs[1].real_ms[0], 0.1);  // 100000 ns
}

TEST(BenchJson, RefusesWhatIsNotBenchmarkJsonWithAMessage) {
  const auto message = [](const std::string& text) {
    try {
      parse_benchmark_json(text, "x.json");
    } catch (const BenchJsonError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("{\"benchmarks\": [").find("x.json: not JSON"), std::string::npos);
  EXPECT_NE(message("schema,run_id\n1.7,a\n").find("not JSON"), std::string::npos);
  EXPECT_NE(message("{\"cases\": []}").find("no \"benchmarks\" array"), std::string::npos);
  EXPECT_NE(message("[1, 2]").find("no \"benchmarks\" array"), std::string::npos);
  EXPECT_NE(message(bench_json({})).find("no benchmark repetition"), std::string::npos);
  EXPECT_NE(message(bench_json({aggregate("BM_a", "mean", 1)})).find("no benchmark repetition"), std::string::npos);
  EXPECT_NE(message(bench_json({entry("BM_a", 0, 1, "fortnights")})).find("unknown time_unit 'fortnights'"),
            std::string::npos);
  EXPECT_NE(message(bench_json({R"({"name": "BM_a", "run_type": "iteration", "real_time": "fast"})"})).find("no real_time"),
            std::string::npos);
  EXPECT_NE(message(bench_json({"3"})).find("benchmarks[0] is not an object"), std::string::npos);
  EXPECT_THROW(read_benchmark_json("/nonexistent/x.json"), BenchJsonError);
}

TEST(BenchDiff, ACleanSlowDownIsSlowerAndNoiseOrNoChangeIsNot) {
  const auto base = parse_benchmark_json(bench_json(joined(five("BM_a", 1.0), five("BM_b", 1.0))), "base");
  // BM_a 20% slower in every repetition (5 against 5, no ties: exact p = 2/252 = 0.0079);
  // BM_b unchanged.
  const auto now = parse_benchmark_json(bench_json(joined(five("BM_a", 1.2), five("BM_b", 1.0))), "now");
  const BenchDiff diff = diff_benchmarks(base, now, {});
  ASSERT_EQ(diff.compared.size(), 2u);
  EXPECT_EQ(diff.compared[0].comparison.change, TimingChange::slower) << diff.compared[0].comparison.reason;
  EXPECT_NEAR(*diff.compared[0].comparison.p_value, 2.0 / 252, 1e-12);
  EXPECT_EQ(diff.compared[1].comparison.change, TimingChange::same);
  EXPECT_TRUE(diff.any_slower());
  std::ostringstream table;
  print_bench_diff(table, diff);
  EXPECT_NE(table.str().find("BM_a"), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("+20.0%"), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("SAME 1, FASTER 0, SLOWER 1, UNSURE 0"), std::string::npos) << table.str();
}

TEST(BenchDiff, BenchmarksOfOneRunOnlyAreListed) {
  const auto base = parse_benchmark_json(bench_json(joined(five("BM_a", 1.0), five("BM_gone", 1.0))), "base");
  const auto now = parse_benchmark_json(bench_json(joined(five("BM_a", 1.0), five("BM_new", 1.0))), "now");
  const BenchDiff diff = diff_benchmarks(base, now, {});
  EXPECT_EQ(diff.compared.size(), 1u);
  EXPECT_EQ(diff.only_baseline, std::vector<std::string>{"BM_gone"});
  EXPECT_EQ(diff.only_current, std::vector<std::string>{"BM_new"});
  EXPECT_FALSE(diff.any_slower());
}

using Result = gridfuzz::testing::CommandResult;

std::string q(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

TEST(CliBenchDiff, ExitsOneOnASlowDownZeroOtherwiseTwoOnBadInput) {
  TempDir dir;
  testing::write_text(dir / "base.json", bench_json(five("BM_a", 1.0)));
  testing::write_text(dir / "same.json", bench_json(five("BM_a", 1.01)));
  testing::write_text(dir / "slow.json", bench_json(five("BM_a", 1.3)));
  testing::write_text(dir / "other.json", bench_json(five("BM_z", 1.0)));
  testing::write_text(dir / "report.csv", "schema,run_id\n1.7,a\n");

  const Result same = gridfuzz::testing::run_gridfuzz("bench-diff " + q(dir / "base.json") + " " + q(dir / "same.json"));
  EXPECT_EQ(same.exit_code, 0) << same.output;
  EXPECT_NE(same.output.find("SAME"), std::string::npos) << same.output;

  const Result slow = gridfuzz::testing::run_gridfuzz("bench-diff " + q(dir / "base.json") + " " + q(dir / "slow.json"));
  EXPECT_EQ(slow.exit_code, 1) << slow.output;
  EXPECT_NE(slow.output.find("SLOWER"), std::string::npos) << slow.output;
  EXPECT_NE(slow.output.find("Mann-Whitney U p=0.0079"), std::string::npos) << slow.output;
  // Beyond a 40% threshold the same change is SAME.
  EXPECT_EQ(gridfuzz::testing::run_gridfuzz("bench-diff --threshold 40% " + q(dir / "base.json") + " " +
                                            q(dir / "slow.json")).exit_code, 0);
  // At alpha 0.005 five repetitions a side cannot reach significance (least p 0.0079): UNSURE.
  const Result strict = gridfuzz::testing::run_gridfuzz("bench-diff --alpha 0.005 " + q(dir / "base.json") + " " +
                                                        q(dir / "slow.json"));
  EXPECT_EQ(strict.exit_code, 0) << strict.output;
  EXPECT_NE(strict.output.find("UNSURE"), std::string::npos) << strict.output;

  for (const auto& [args, says] : std::vector<std::pair<std::string, std::string>>{
           {q(dir / "base.json") + " " + q(dir / "missing.json"), "missing.json: cannot read"},
           {q(dir / "report.csv") + " " + q(dir / "base.json"), "report.csv: not JSON"},
           {q(dir / "base.json") + " " + q(dir / "other.json"), "no benchmark of"},
           {"--alpha 2 " + q(dir / "base.json") + " " + q(dir / "same.json"), "--alpha"},
       }) {
    const Result bad = gridfuzz::testing::run_gridfuzz("bench-diff " + args);
    EXPECT_EQ(bad.exit_code, 2) << args << "\n" << bad.output;
    EXPECT_NE(bad.output.find(says), std::string::npos) << args << "\n" << bad.output;
  }
}

}  // namespace
}  // namespace gridfuzz::reports
