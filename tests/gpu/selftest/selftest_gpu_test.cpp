// The self-test plugin on a GPU, through the real `gridfuzz --plugin libgridfuzz_selftest.so`
// (its worker process absorbs the faulting cases). For every trigger of
// kernels/selftest/adapter/selftest_triggers.cpp:
//   - `gridfuzz bisect` (or `run` for a single point) finds the first failing shape exactly at the
//     trigger, observed as the specified kind (refusal with its rule, unwritten, mismatch, fault),
//     and the model's prediction there is the specified one (where the model can know it);
//   - the fixed twin passes at the trigger.
// For every self-test kernel, a `gridfuzz sweep --cases 20` leaves no failing fixed row.
// selftest.race (a planted race, no trigger) is fail:nondeterministic, its fixed twin passes.
// Environment: GRIDFUZZ_BINARY / GRIDFUZZ_SELFTEST_PLUGIN override the built paths (prebuilt
// binaries); GRIDFUZZ_SELFTEST_OUT keeps the CSVs and writes bug-classes-table.md there.
#include <gtest/gtest.h>

#include "gridfuzz/core/verdict.hpp"
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>

#include "gridfuzz/core/case.hpp"
#include "gridfuzz/device/device.hpp"
#include "gridfuzz/device/driver_api.hpp"
#include "gridfuzz/engine/guarded_buffers.hpp"
#include "gridfuzz/reports/csv_reader.hpp"
#include "selftest_kernels.hpp"
#include "selftest_table.hpp"
#include "selftest_triggers.hpp"

namespace fs = std::filesystem;
using namespace gridfuzz;

namespace {

std::string env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v && *v ? v : fallback;
}
const std::string& binary() { static const std::string b = env_or("GRIDFUZZ_BINARY", GRIDFUZZ_BINARY); return b; }
const std::string& plugin() {
  static const std::string p = env_or("GRIDFUZZ_SELFTEST_PLUGIN", GRIDFUZZ_SELFTEST_PLUGIN);
  return p;
}
const fs::path& out_dir() {
  static const fs::path d = [] {
    fs::path p = env_or("GRIDFUZZ_SELFTEST_OUT", "");
    if (p.empty()) p = fs::temp_directory_path() / ("gridfuzz-selftest-gpu-" + std::to_string(getpid()));
    fs::create_directories(p);
    return p;
  }();
  return d;
}

struct Result {
  int exit_code = -1;
  std::string output;
  double seconds = 0;
};

Result gridfuzz_cli(const std::string& args) {
  Result r;
  const std::string command = "'" + binary() + "' --plugin '" + plugin() + "' " + args + " 2>&1";
  const auto t0 = std::chrono::steady_clock::now();
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), buf.size(), pipe)) r.output += buf.data();
  const int status = pclose(pipe);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string sets(const selftest::Trigger& t) {
  std::string s;
  for (const auto& [axis, v] : t.fixed_axes) s += " --set " + axis + "=" + v;
  return s;
}

std::string trigger_id(const selftest::Trigger& t) {
  std::string n = t.kernel.substr(9) + "_" + t.variant + "_" + std::to_string(t.first_bad);
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

// The kind a row shows, in the Trigger's vocabulary: refused, fault, or the oracle's first finding.
std::string detected_kind(const reports::CsvRow& row) {
  const std::string& obs = row.get("observed");
  if (obs.rfind("refuse:", 0) == 0) return "refused";
  if (obs.rfind("fault:", 0) == 0) return "fault";
  const std::string& verdict = row.get("verdict");
  if (verdict.rfind("fail:", 0) == 0) return verdict.substr(5);
  // An expected failure (ledger): the oracle summary, "split:exact:N unwritten:M cpu:a/b" or "guard:<buffer>",
  // in the runner's order of precedence.
  const std::string& oracle = row.get("oracle");
  if (oracle.rfind("guard:", 0) == 0) return "out-of-bounds-write";
  auto count_after = [&](const std::string& key) -> long long {
    const auto pos = oracle.find(key);
    return pos == std::string::npos ? 0 : std::atoll(oracle.c_str() + pos + key.size());
  };
  if (count_after("unwritten:") > 0) return "unwritten";
  if (oracle.rfind("split:", 0) == 0 && count_after(oracle.substr(0, oracle.find(':', 6) + 1)) > 0) return "mismatch";
  return verdict;
}

std::string model_of(const reports::CsvRow& row) {
  if (row.get("predicted") != "accept") return row.get("predicted");
  return row.get("index_wrap") == "safe" ? "none" : row.get("index_wrap");
}

// The row of `t.kernel`/`variant` with `t.axis` = value (the last one, if run more than once).
std::optional<reports::CsvRow> row_at(const fs::path& csv, const selftest::Trigger& t, const std::string& variant,
                                      std::int64_t value) {
  std::optional<reports::CsvRow> found;
  for (const auto& row : reports::read_csv(csv).rows) {
    const Case c = Case::parse_replay(row.get("replay"));
    if (c.kernel == t.kernel && c.variant == variant && c.params.has(t.axis) &&
        c.params.get(t.axis) == std::to_string(value))
      found = row;
  }
  return found;
}

std::string human_bytes(std::uint64_t b) {
  char buf[32];
  if (b >= (1ull << 30)) std::snprintf(buf, sizeof buf, "%.1f GiB", static_cast<double>(b) / (1ull << 30));
  else std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(b) / (1ull << 20));
  return buf;
}

// Device memory of one case at the trigger: buffers with guards, plus the split reference's outputs.
std::string memory_at(const selftest::Trigger& t) {
  Registry reg;
  selftest::register_kernels(reg);
  const auto k = reg.find(t.kernel);
  Params p = Params::defaults(k->axes());
  for (const auto& [axis, v] : t.fixed_axes) p.set(axis, v);
  p.set(t.axis, std::to_string(t.first_bad));
  auto specs = k->buffers(p, t.variant);
  std::uint64_t bytes = GuardedBuffers::footprint(specs);
  for (auto& s : specs)
    if (s.role == BufferRole::input) s.elements = 0;
  return human_bytes(bytes + GuardedBuffers::footprint(specs));
}

bool no_device(std::string* why) {
  if (device::device_count() > 0) return false;
  device::driver_available(why);
  return true;
}

class TableWriter : public ::testing::Environment {
 public:
  void TearDown() override {
    if (std::getenv("GRIDFUZZ_SELFTEST_OUT") == nullptr) return;
    std::ofstream(out_dir() / "bug-classes-table.md") << selftest_gpu::markdown_table();
    std::printf("table: %s\n", (out_dir() / "bug-classes-table.md").c_str());
  }
};
const auto* const kTableWriter = ::testing::AddGlobalTestEnvironment(new TableWriter);

class SelftestGpu : public ::testing::TestWithParam<selftest::Trigger> {
 protected:
  void SetUp() override {
    std::string why;
    if (no_device(&why)) GTEST_SKIP() << "no CUDA device: " << why;
  }
};

}  // namespace

TEST_P(SelftestGpu, LegacyFailsAtTheTriggerAsSpecifiedAndTheFixedTwinPasses) {
  const selftest::Trigger& t = GetParam();
  const fs::path csv = out_dir() / (trigger_id(t) + ".csv");
  fs::remove(csv);
  Result found;
  std::string shape = t.axis + "=" + std::to_string(t.first_bad);
  for (const auto& [axis, v] : t.fixed_axes) shape += ", " + axis + "=" + v;
  if (t.is_point()) {
    found = gridfuzz_cli("run " + t.kernel + " --variant " + t.variant + " --set " + t.axis + "=" +
                         std::to_string(t.first_bad) + sets(t) + " --csv '" + csv.string() + "'");
  } else {
    found = gridfuzz_cli("bisect " + t.kernel + " --variant " + t.variant + " --axis " + t.axis + sets(t) + " --range " +
                         std::to_string(t.search_lo) + ":" + std::to_string(t.search_hi) + " --csv '" + csv.string() + "'");
    const std::string want = "first_fail=" + std::to_string(t.first_bad) + " ";
    EXPECT_NE(found.output.find(want), std::string::npos) << "boundary not at the trigger:\n" << found.output;
    EXPECT_NE(found.output.find("last_pass=" + std::to_string(t.first_bad - 1) + " "), std::string::npos) << found.output;
  }
  const auto row = row_at(csv, t, t.variant, t.first_bad);
  ASSERT_TRUE(row) << "no row at the trigger in " << csv << "\n" << found.output;
  const std::string detected = detected_kind(*row), predicted = model_of(*row);
  EXPECT_EQ(detected, t.detected) << row->get("observed") << " " << row->get("oracle") << " " << row->get("verdict");
  EXPECT_EQ(predicted, t.predicted);
  EXPECT_NE(row->get("verdict"), "model-mismatch") << row->get("predicted") << " vs " << row->get("observed");

  // The fixed twin at the same shape.
  const fs::path fixed_csv = out_dir() / (trigger_id(t) + "_fixed.csv");
  fs::remove(fixed_csv);
  const Result fixed = gridfuzz_cli("run " + t.kernel + " --variant fixed --set " + t.axis + "=" +
                                    std::to_string(t.first_bad) + sets(t) + " --csv '" + fixed_csv.string() + "'");
  EXPECT_EQ(fixed.exit_code, 0) << fixed.output;
  const auto fixed_row = row_at(fixed_csv, t, "fixed", t.first_bad);
  ASSERT_TRUE(fixed_row) << fixed.output;
  EXPECT_EQ(fixed_row->get("verdict"), "pass") << fixed_row->get("oracle") << " " << fixed.output;

  const bool ok = !::testing::Test::HasFailure();
  char time[64];
  std::snprintf(time, sizeof time, "%.1f s (%s)", found.seconds, t.is_point() ? "1 run" : "bisect");
  selftest_gpu::add_row({t.bug_class, t.kernel + " (" + t.variant + ")", shape, memory_at(t),
                         predicted + (t.predicted == "none" ? " (model cannot see it)" : ""),
                         detected + ": " + row->get("observed") + ", " + row->get("oracle"), time,
                         ok ? "as specified" : "DIFFERS: expected " + t.detected + " / " + t.predicted});
}

INSTANTIATE_TEST_SUITE_P(AllClasses, SelftestGpu, ::testing::ValuesIn(selftest::triggers()),
                         [](const auto& info) { return trigger_id(info.param); });

class SelftestSweepGpu : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    std::string why;
    if (no_device(&why)) GTEST_SKIP() << "no CUDA device: " << why;
  }
};

TEST_P(SelftestSweepGpu, FixedTwinHasNoFalsePositiveInARandomSweep) {
  const std::string kernel = GetParam();
  const fs::path csv = out_dir() / (kernel.substr(9) + "_sweep.csv");
  fs::remove(csv);
  // 16 GiB per case keeps the random shapes quick; bigger ones are recorded as skipped.
  const Result r = gridfuzz_cli("sweep " + kernel + " --cases 20 --seed 7 --budget-mib 16384 --time-budget 600 --csv '" +
                                csv.string() + "'");
  std::size_t fixed_rows = 0, fixed_ran = 0;
  for (const auto& row : reports::read_csv(csv).rows) {
    const std::string& v = row.get("verdict");
    const bool failing = verdict_fails_run(v);
    if (row.get("variant") == "fixed") {
      ++fixed_rows;
      fixed_ran += v == "pass";
      EXPECT_FALSE(failing) << "false positive: " << v << " " << row.get("replay") << " " << row.get("oracle");
    } else if (kernel == "selftest.dropped_rows") {
      // The model cannot see this bug, so its legacy failures stay failures: all of the one kind.
      if (failing) {
        EXPECT_EQ(v, "fail:unwritten") << row.get("replay");
      }
    } else if (kernel == "selftest.race") {
      // No model sees a race either. Two calls that lost the very same adds (a few rows, blocks
      // that barely overlap) leave a plain mismatch; anything else is named a race.
      if (failing) {
        EXPECT_TRUE(v == "fail:nondeterministic" || v == "fail:mismatch") << v << " " << row.get("replay");
      }
    } else {
      EXPECT_FALSE(failing) << "legacy failure the model and ledger do not explain: " << v << " " << row.get("replay");
    }
  }
  EXPECT_GE(fixed_rows, 10u) << r.output;
  EXPECT_GT(fixed_ran, 0u) << "no fixed case ran: " << r.output;
  if (kernel != "selftest.dropped_rows" && kernel != "selftest.race") {
    EXPECT_EQ(r.exit_code, 0) << r.output.substr(r.output.size() > 4000 ? r.output.size() - 4000 : 0);
  }
}

INSTANTIATE_TEST_SUITE_P(AllKernels, SelftestSweepGpu,
                         ::testing::Values("selftest.flat_yz", "selftest.dropped_rows", "selftest.host_int32",
                                           "selftest.int32_offset", "selftest.int32_offset_fault",
                                           "selftest.uint32_offset", "selftest.grid_stride_loop",
                                           "selftest.block_threads", "selftest.dynamic_smem",
                                           "selftest.register_pressure", "selftest.race"),
                         [](const auto& info) { return info.param.substr(9); });

// The elements the self-check found different, from a row's oracle text ("... self:differ:24"), or
// nullopt when the text has no self-check part; 0 for "self:same".
std::optional<long long> self_differ_of(const reports::CsvRow& row) {
  const std::string& oracle = row.get("oracle");
  if (oracle.ends_with(" self:same")) return 0;
  const auto at = oracle.find(" self:differ:");
  if (at == std::string::npos) return std::nullopt;
  return std::atoll(oracle.c_str() + at + std::string(" self:differ:").size());
}

// Issue 29: races are named. selftest.race legacy (each block adds its row to the column sums with
// a plain read-modify-write) at its default shape, 4096 blocks over 256 columns, is
// fail:nondeterministic with the count of elements its two calls differ in, in each of three runs
// (docs/BUG-CLASSES.md, "A race across blocks": a miss would be two calls losing the very same adds
// in all 256 columns). Its fixed twin (atomicAdd) passes, and with every case self-checked
// (--self-check-share 1) says self:same. `replay` of the legacy row shows the self-comparison on
// its line.
TEST(SelftestRaceGpu, TheRacyKernelIsNondeterministicAndItsFixedTwinPasses) {
  std::string why;
  if (no_device(&why)) GTEST_SKIP() << "no CUDA device: " << why;
  for (int attempt = 1; attempt <= 3; ++attempt) {
    const fs::path csv = out_dir() / ("race_legacy_" + std::to_string(attempt) + ".csv");
    fs::remove(csv);
    const Result r = gridfuzz_cli("run selftest.race --variant legacy --csv '" + csv.string() + "'");
    const auto rows = reports::read_csv(csv).rows;
    ASSERT_EQ(rows.size(), 1u) << r.output;
    EXPECT_EQ(rows[0].get("verdict"), "fail:nondeterministic") << "run " << attempt << ": " << rows[0].get("oracle");
    const auto differ = self_differ_of(rows[0]);
    ASSERT_TRUE(differ) << rows[0].get("oracle");
    EXPECT_GT(*differ, 0) << rows[0].get("oracle");
    EXPECT_LE(*differ, 256) << rows[0].get("oracle");
    EXPECT_NE(r.output.find("self:differ:"), std::string::npos) << r.output;
    std::printf("race run %d: %s, %s\n", attempt, rows[0].get("verdict").c_str(), rows[0].get("oracle").c_str());
    if (attempt == 1) {
      const Result replayed = gridfuzz_cli("replay '" + csv.string() + ":1'");
      EXPECT_NE(replayed.output.find("fail:nondeterministic"), std::string::npos) << replayed.output;
      EXPECT_NE(replayed.output.find("self:differ:"), std::string::npos) << replayed.output;
    }
  }
  const fs::path fixed_csv = out_dir() / "race_fixed.csv";
  fs::remove(fixed_csv);
  const Result fixed =
      gridfuzz_cli("run selftest.race --variant fixed --self-check-share 1 --csv '" + fixed_csv.string() + "'");
  EXPECT_EQ(fixed.exit_code, 0) << fixed.output;
  const auto rows = reports::read_csv(fixed_csv).rows;
  ASSERT_EQ(rows.size(), 1u) << fixed.output;
  EXPECT_EQ(rows[0].get("verdict"), "pass") << rows[0].get("oracle");
  EXPECT_EQ(self_differ_of(rows[0]), std::optional<long long>(0)) << rows[0].get("oracle");
}

// Issue 30: `sweep 'selftest.*'` with no directions at all (default tiers, default random cases)
// finds every bug class with the kind its trigger specifies, and no fixed twin fails anywhere.
// It takes minutes, so it runs when GRIDFUZZ_UNDIRECTED_BUDGET_S (its time budget) is set, as
// `scripts/gpu-selftest --undirected` does.
TEST(UndirectedSelftestGpu, SweepWithNoDirectionsFindsEveryClassAndNoFalsePositive) {
  std::string why;
  if (no_device(&why)) GTEST_SKIP() << "no CUDA device: " << why;
  const std::string budget = env_or("GRIDFUZZ_UNDIRECTED_BUDGET_S", "");
  if (budget.empty()) GTEST_SKIP() << "a sweep of minutes: set GRIDFUZZ_UNDIRECTED_BUDGET_S (scripts/gpu-selftest --undirected)";
  const fs::path csv = out_dir() / "undirected_sweep.csv";
  fs::remove(csv);
  const Result r = gridfuzz_cli("sweep 'selftest.*' --time-budget " + budget + " --csv '" + csv.string() + "'");
  std::printf("%s\n", r.output.substr(r.output.size() > 1500 ? r.output.size() - 1500 : 0).c_str());
  const auto rows = reports::read_csv(csv).rows;
  for (const selftest::Trigger& t : selftest::triggers()) {
    std::size_t of_target = 0;
    std::optional<reports::CsvRow> hit;
    for (const auto& row : rows) {
      if (row.get("kernel") != t.kernel || row.get("variant") != t.variant) continue;
      ++of_target;
      if (!hit && detected_kind(row) == t.detected) hit = row;
    }
    EXPECT_TRUE(hit) << t.bug_class << " " << t.kernel << "/" << t.variant << ": no row detected as " << t.detected
                     << " among " << of_target << " rows";
    if (hit) std::printf("found %s %s/%s as %s: %s\n", t.bug_class.c_str(), t.kernel.c_str(), t.variant.c_str(),
                         t.detected.c_str(), hit->get("replay").c_str());
  }
  std::size_t fixed_rows = 0;
  for (const auto& row : rows)
    if (row.get("variant") == "fixed") {
      ++fixed_rows;
      EXPECT_FALSE(verdict_fails_run(row.get("verdict")))
          << "false positive: " << row.get("verdict") << " " << row.get("replay") << " " << row.get("oracle");
    }
  std::printf("undirected sweep: %zu rows, %zu of fixed twins, %.0f s\n", rows.size(), fixed_rows, r.seconds);
}
