// The sweep command end to end without a GPU: it reaches every predicted boundary, writes one row
// per case, and a sweep killed with SIGKILL and resumed loses and duplicates no row.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "gridfuzz/device/device.hpp"
#include "gridfuzz/reports/csv_reader.hpp"
#include "gridfuzz/reports/schema.hpp"
#include "../../support/run_gridfuzz.hpp"

namespace fs = std::filesystem;

namespace {

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("gridfuzz-sweep-" + std::to_string(getpid()) + "-" +
                                               std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

pid_t spawn(const std::vector<std::string>& args, const fs::path& dir) {
  const pid_t pid = fork();
  if (pid == 0) {
    if (chdir(dir.c_str()) != 0) _exit(126);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    if (!freopen("/dev/null", "w", stdout)) _exit(126);
    execv(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}

int wait_exit(pid_t pid) {
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::size_t count_lines(const fs::path& p) {
  std::ifstream f(p);
  return static_cast<std::size_t>(std::count(std::istreambuf_iterator<char>(f), {}, '\n'));
}

std::vector<std::string> sweep_args(const std::string& csv, int cases, bool resume) {
  // selftest.flat_yz lives in the self-test plugin.
  std::vector<std::string> a{GRIDFUZZ_BINARY, "--plugin", GRIDFUZZ_SELFTEST_PLUGIN, "sweep", "selftest.flat_yz",
                             "--static", "--device-preset", "sm_90",
                             "--cases", std::to_string(cases), "--seed", "11", "--csv", csv};
  if (resume) a.push_back("--resume");
  return a;
}

}  // namespace

TEST(SweepCli, ReachesEveryPredictedBoundaryAtPlusMinusTwo) {
  TempDir tmp;
  ASSERT_EQ(wait_exit(spawn(sweep_args("r.csv", 3, false), tmp.path)), 0);
  std::set<std::string> legacy_rows;
  for (const auto& row : gridfuzz::reports::read_csv(tmp.path / "r.csv").rows)
    if (row.get("variant") == "legacy" && row.get("cols") == "64") legacy_rows.insert(row.get("rows"));
  for (const char* v : {"65534", "65535", "65536", "65537", "65538"}) EXPECT_TRUE(legacy_rows.count(v)) << v;
}

// The rows of a sweep say which tier made each: its boundary cases first, then the random ones.
TEST(SweepCli, RowsSayTheirTier) {
  TempDir tmp;
  ASSERT_EQ(wait_exit(spawn(sweep_args("r.csv", 3, false), tmp.path)), 0);
  const auto rows = gridfuzz::reports::read_csv(tmp.path / "r.csv").rows;
  std::map<std::string, std::size_t> per_tier;
  bool random_seen = false;
  for (const auto& row : rows) {
    ASSERT_TRUE(row.tier().has_value()) << row.get("replay");
    ++per_tier[row.get("tier")];
    const bool random = row.tier() == gridfuzz::CaseTier::random;
    EXPECT_TRUE(random || !random_seen) << "a boundary row after a random one: " << row.get("replay");
    random_seen = random_seen || random;
  }
  EXPECT_GT(per_tier["defaults"], 0u);
  std::set<std::string> variants;
  for (const auto& row : rows) variants.insert(row.get("variant"));
  EXPECT_GT(per_tier["random"], 0u);
  EXPECT_LE(per_tier["random"], 3 * variants.size());  // a draw equal to a boundary case is not run twice
}

TEST(SweepCli, KilledSweepResumesWithoutLosingOrDuplicatingRows) {
  TempDir tmp;
  // The uninterrupted run: the reference set of cases.
  ASSERT_EQ(wait_exit(spawn(sweep_args("full.csv", 400, false), tmp.path)), 0);
  const auto full = gridfuzz::reports::read_csv(tmp.path / "full.csv").rows;
  // The same sweep, killed once it has written some rows.
  const pid_t pid = spawn(sweep_args("killed.csv", 400, false), tmp.path);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (count_lines(tmp.path / "killed.csv") < 40 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  kill(pid, SIGKILL);
  EXPECT_EQ(wait_exit(pid), 128 + SIGKILL);
  const std::size_t before = gridfuzz::reports::read_csv(tmp.path / "killed.csv").rows.size();
  ASSERT_LT(before, full.size()) << "the sweep finished before it could be killed: the test proves nothing";
  ASSERT_EQ(wait_exit(spawn(sweep_args("killed.csv", 400, true), tmp.path)), 0);
  const auto resumed = gridfuzz::reports::read_csv(tmp.path / "killed.csv").rows;
  std::multiset<std::string> got, want;
  for (const auto& r : resumed) got.insert(r.get("case_id"));
  for (const auto& r : full) want.insert(r.get("case_id"));
  EXPECT_EQ(got, want);
}

// A field as the CSV writes it: quoted when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& v) {
  if (v.find_first_of(",\"\r\n") == std::string::npos) return v;
  std::string out = "\"";
  for (const char c : v) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// A sweep killed under the build before the `tier` column (schema 1.4) resumes: the file stays a
// 1.4 file (its header, and 1.4 in every new row), and its rows are the whole sweep, once each.
TEST(SweepCli, KilledSweepOfSchema14Resumes) {
  namespace reports = gridfuzz::reports;
  TempDir tmp;
  ASSERT_EQ(wait_exit(spawn(sweep_args("full.csv", 40, false), tmp.path)), 0);
  const auto full = reports::read_csv(tmp.path / "full.csv").rows;
  ASSERT_GT(full.size(), 20u);
  // Its first half as the 1.4 writer wrote it: the columns of 1.4, under its version.
  const std::size_t old_columns = reports::column_count_of_minor(4);
  std::string header;
  for (std::size_t c = 0; c < old_columns; ++c) {
    if (c) header += ',';
    header += reports::kColumns[c].name;
  }
  {
    std::ofstream old(tmp.path / "old.csv");
    old << header << "\n";
    for (std::size_t r = 0; r < full.size() / 2; ++r) {
      old << "1.4";
      for (std::size_t c = 1; c < old_columns; ++c) old << "," << csv_field(full[r].at(c));
      old << "\n";
    }
  }
  ASSERT_EQ(wait_exit(spawn(sweep_args("old.csv", 40, true), tmp.path)), 0);
  std::ifstream in(tmp.path / "old.csv");
  std::string first_line;
  std::getline(in, first_line);
  EXPECT_EQ(first_line, header);
  const auto resumed = reports::read_csv(tmp.path / "old.csv").rows;
  std::multiset<std::string> got, want;
  for (const auto& r : resumed) {
    got.insert(r.get("case_id"));
    EXPECT_EQ(r.get("schema"), "1.4");
    EXPECT_FALSE(r.tier().has_value());
  }
  for (const auto& r : full) want.insert(r.get("case_id"));
  EXPECT_EQ(got, want);
}

TEST(SweepCli, DevicesOptionErrorsAreClear) {
  TempDir tmp;
  const std::string csv = (tmp.path / "d.csv").string();
  const std::pair<std::string, std::string> usage[] = {
      {"--devices x", "'x' is not a device ordinal"},
      {"--devices 0,0", "listed twice"},
      {"--devices 0,,1", "'' is not a device ordinal"},
      {"--devices 0 --device-preset sm_90", "excludes --device"},
      {"--devices 0 --device 0", "excludes --device"},
      {"--devices 0 --static", "excludes --static"},
  };
  for (const auto& [args, message] : usage) {
    const auto r = gridfuzz::testing::run_gridfuzz("sweep gguf.moe_vec --cases 0 --csv " + csv + " " + args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << args << "\n" << r.output;
  }
  const auto absent = gridfuzz::testing::run_gridfuzz("sweep gguf.moe_vec --cases 0 --csv " + csv + " --devices 4095");
  EXPECT_EQ(absent.exit_code, 3) << "a GPU that is not there is an environment error\n" << absent.output;
  EXPECT_NE(absent.output.find("device 4095 does not exist"), std::string::npos) << absent.output;
  EXPECT_FALSE(fs::exists(csv)) << "no CSV is started for a sweep that cannot run";
}

// "all" means every GPU present: none here is the static analysis (rows without a device_index),
// on a GPU machine every row names one of its GPUs.
TEST(SweepCli, DevicesAllRunsOnWhatIsThere) {
  TempDir tmp;
  // Where the rows ran, not how many, is the point: the defaults' tier as found (the whole plan
  // of the kernel, its cheaper crossings weighed, took 305 s under ASan).
  ASSERT_EQ(wait_exit(spawn({GRIDFUZZ_BINARY, "sweep", "gguf.moe_vec", "--tiers", "defaults", "--crossings-as-found",
                             "--cases", "2", "--devices", "all", "--csv", "all.csv"},
                            tmp.path)),
            0);
  const auto rows = gridfuzz::reports::read_csv(tmp.path / "all.csv").rows;
  ASSERT_FALSE(rows.empty());
  const int gpus = gridfuzz::device::device_count();
  for (const auto& row : rows) {
    if (gpus == 0) {
      EXPECT_EQ(row.get("observed"), "static");
      EXPECT_EQ(row.get("device_index"), "");
    } else {
      ASSERT_FALSE(row.get("device_index").empty()) << row.get("replay");
      EXPECT_LT(std::stoi(row.get("device_index")), gpus);
    }
  }
}

// A sweep without --resume never overwrites an earlier report: it is moved aside, each time to a
// new name (the file's mtime, then a counter). The newest three set-aside copies are kept (below).
TEST(SweepCli, AnEarlierReportIsMovedAsideNeverOverwritten) {
  TempDir tmp;
  for (int i = 0; i < 3; ++i) ASSERT_EQ(wait_exit(spawn(sweep_args("r.csv", 0, false), tmp.path)), 0);
  std::vector<fs::path> backups;
  for (const auto& e : fs::directory_iterator(tmp.path))
    if (e.path().extension() == ".bak") backups.push_back(e.path());
  ASSERT_EQ(backups.size(), 2u);
  const auto rows = gridfuzz::reports::read_csv(tmp.path / "r.csv").rows.size();
  for (const auto& b : backups) {
    EXPECT_EQ(b.filename().string().rfind("r.csv.20", 0), 0u) << b;
    EXPECT_EQ(gridfuzz::reports::read_csv(b).rows.size(), rows) << b;
  }
}

// Reruns do not pile up set-aside copies: the newest three of r.csv stay (the CSVs of the three
// runs before the last), older ones are deleted, and nothing else is touched: other files that
// look alike, a copy of another CSV, a folder with such a name.
TEST(SweepCli, OnlyTheNewestThreeSetAsideCopiesAreKept) {
  TempDir tmp;
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(tmp.path / name) << text;
  };
  write("r.csv.notes.bak", "schema,mine\n");
  write("r.csv.20000101T000000Z.bak.keep", "schema,mine\n");
  write("other.csv.20000101T000000Z.bak", "schema,mine\n");
  write("r.csv.20000101T000000Z-x.bak", "schema,mine\n");
  write("r.csv.20000101T000001Z.bak", "not a CSV of ours\n");
  fs::create_directories(tmp.path / "r.csv.20000101T000002Z.bak");
  std::vector<std::string> run_ids;  // of r.csv after each run
  for (int i = 0; i < 6; ++i) {
    ASSERT_EQ(wait_exit(spawn(sweep_args("r.csv", 0, false), tmp.path)), 0);
    run_ids.push_back(gridfuzz::reports::read_csv(tmp.path / "r.csv").rows.at(0).get("run_id"));
  }
  std::multiset<std::string> kept;
  for (const auto& e : fs::directory_iterator(tmp.path)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("r.csv.20", 0) != 0 || e.path().extension() != ".bak" || !e.is_regular_file()) continue;
    if (name.rfind("r.csv.2000", 0) == 0) continue;  // the look-alikes, checked below
    kept.insert(gridfuzz::reports::read_csv(e.path()).rows.at(0).get("run_id"));
  }
  EXPECT_EQ(kept, (std::multiset<std::string>{run_ids[2], run_ids[3], run_ids[4]}));
  for (const char* name : {"r.csv.notes.bak", "r.csv.20000101T000000Z.bak.keep", "other.csv.20000101T000000Z.bak",
                           "r.csv.20000101T000000Z-x.bak", "r.csv.20000101T000001Z.bak", "r.csv.20000101T000002Z.bak"})
    EXPECT_TRUE(fs::exists(tmp.path / name)) << name << " was deleted";
}

// `--tiers none` leaves the random cases alone; an unknown tier is a usage error (exit 2) that
// touches no file.
TEST(SweepCli, TiersNoneRunsOnlyTheRandomCasesAndUnknownTiersAreRefused) {
  TempDir tmp;
  auto args = sweep_args("r.csv", 3, false);
  args.insert(args.end(), {"--model", "none", "--tiers", "none"});
  ASSERT_EQ(wait_exit(spawn(args, tmp.path)), 0);
  const auto rows = gridfuzz::reports::read_csv(tmp.path / "r.csv").rows;
  std::size_t variants = 0;
  std::set<std::string> seen;
  for (const auto& row : rows) {
    variants += seen.insert(row.get("variant")).second;
    EXPECT_EQ(row.tier(), gridfuzz::CaseTier::random) << row.get("replay");
  }
  EXPECT_EQ(rows.size(), 3 * variants) << "three random cases per variant and nothing else";

  auto bad = sweep_args("bad.csv", 3, false);
  bad.insert(bad.end(), {"--tiers", "defaults,bogus"});
  EXPECT_EQ(wait_exit(spawn(bad, tmp.path)), 2);
  EXPECT_FALSE(fs::exists(tmp.path / "bad.csv"));
}
