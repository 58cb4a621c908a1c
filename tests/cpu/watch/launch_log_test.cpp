// The launch log's one format: what the injection library writes reads back the same, counts of
// one launch merge by their largest value per process and add up over processes, and every kind
// of bad line is skipped with its line number.
#include <gtest/gtest.h>

#include "gridfuzz/watch/launch_log.hpp"

namespace gridfuzz::watch {
namespace {

WatchedLaunch near_y() {
  WatchedLaunch l;
  l.pid = 41;
  l.count = 4;
  l.grid = {1, 61440, 1};
  l.block = {256, 1, 1};
  l.dynamic_smem_bytes = 1024;
  l.static_smem_bytes = 512;
  l.regs = 32;
  l.max_dynamic_smem_bytes = 48640;
  l.symbol = "_Z6near_yPf";
  return l;
}

TEST(LaunchLog, LaunchLineRoundTrips) {
  const WatchedLaunch l = near_y();
  const std::string line = format_launch_line(l);
  EXPECT_EQ(line,
            "launch pid=41 n=4 api=driver result=0 error=- grid=1,61440,1 block=256,1,1 dsmem=1024 ssmem=512 regs=32 "
            "maxdsmem=48640 kernel=_Z6near_yPf\n");
  const ParsedLaunchLine parsed = parse_launch_line(std::string_view(line).substr(0, line.size() - 1));
  ASSERT_TRUE(parsed.launch) << parsed.problem;
  EXPECT_EQ(*parsed.launch, l);
}

TEST(LaunchLog, RefusedAndUnknownGeometryRoundTrip) {
  WatchedLaunch l;
  l.pid = 7;
  l.api = LaunchApi::runtime;
  l.result = 999;
  l.error = "cudaErrorInvalidConfiguration";
  l.geometry_known = false;
  l.grid = l.block = Dim3{0, 0, 0};
  l.symbol = "";  // unknown
  const std::string line = format_launch_line(l);
  EXPECT_NE(line.find(" grid=? block=? "), std::string::npos) << line;
  EXPECT_NE(line.find(" kernel=?\n"), std::string::npos) << line;
  const ParsedLaunchLine parsed = parse_launch_line(std::string_view(line).substr(0, line.size() - 1));
  ASSERT_TRUE(parsed.launch) << parsed.problem;
  EXPECT_EQ(*parsed.launch, l);
}

TEST(LaunchLog, TextFieldsStayOneField) {
  WatchedLaunch l = near_y();
  l.symbol = "a kernel\nname";
  const std::string line = format_launch_line(l);
  EXPECT_NE(line.find("kernel=a?kernel?name\n"), std::string::npos) << line;
  EXPECT_TRUE(parse_launch_line(std::string_view(line).substr(0, line.size() - 1)).launch);
  EXPECT_EQ(format_note_line(3, "two\nlines"), "note pid=3 two lines\n");
}

TEST(LaunchLog, BadLaunchLinesSayWhy) {
  const auto problem = [](std::string_view line) { return parse_launch_line(line).problem; };
  const std::string good = format_launch_line(near_y());
  const std::string_view g = std::string_view(good).substr(0, good.size() - 1);
  EXPECT_TRUE(parse_launch_line(g).launch);
  EXPECT_NE(problem("launch pid=41 n=4").find("12 fields"), std::string::npos);
  EXPECT_NE(problem(std::string(g).replace(g.find("n=4"), 3, "n=0")).find("bad n"), std::string::npos);
  EXPECT_NE(problem(std::string(g).replace(g.find("grid=1,61440,1"), 14, "grid=1,61440")).find("bad grid"),
            std::string::npos);
  EXPECT_NE(problem(std::string(g).replace(g.find("grid=1,61440,1"), 14, "grid=1,-5,1")).find("bad grid"),
            std::string::npos);
  EXPECT_NE(problem(std::string(g).replace(g.find("result=0"), 8, "result=1")).find("disagree"), std::string::npos);
  EXPECT_NE(problem(std::string(g).replace(g.find("api=driver"), 10, "api=other")).find("bad api"), std::string::npos);
  EXPECT_NE(problem(std::string(g).replace(g.find("regs=32"), 7, "registers=32")).find("should be regs="),
            std::string::npos);
  EXPECT_NE(problem(std::string(g).replace(g.find("block=256,1,1"), 13, "block=?")).find("both known"),
            std::string::npos);
  EXPECT_NE(problem(std::string(g).replace(g.find("dsmem=1024"), 10, "dsmem=1e3")).find("bad dsmem"),
            std::string::npos);
}

TEST(LaunchLog, ReadMergesCountsPerProcessAndSkipsBadLines) {
  WatchedLaunch a = near_y();
  std::string text = format_header_line(41);
  for (std::uint64_t n : {1, 2, 4, 3}) {  // written at 1, 2, 4; a smaller count never wins
    a.count = n;
    text += format_launch_line(a);
  }
  text += "launch pid=41 n=x\n";       // bad: skipped with its line
  text += "\n# a comment\n";
  WatchedLaunch b = near_y();
  b.pid = 42;
  b.count = 2;
  text += format_header_line(42) + format_launch_line(b);
  text += format_note_line(42, "launches not recorded: libcupti not found");
  text += format_dropped_line(42, 5);
  text += "launch pid=42 n=1 api=driver";  // the last line, unfinished

  const LaunchLog log = read_launch_log(text);
  ASSERT_EQ(log.launches.size(), 2u) << "one per process and launch";
  EXPECT_EQ(log.launches[0].count, 4u);
  EXPECT_EQ(log.launches[1].count, 2u);
  EXPECT_EQ(log.processes, (std::vector<std::int64_t>{41, 42}));
  EXPECT_EQ(log.dropped, 5u);
  ASSERT_EQ(log.notes.size(), 1u);
  EXPECT_EQ(log.notes[0], "pid 42: launches not recorded: libcupti not found");
  ASSERT_EQ(log.problems.size(), 2u);
  EXPECT_EQ(log.problems[0].rfind("line 6: ", 0), 0u) << log.problems[0];
  EXPECT_EQ(log.problems[1], "line 13: incomplete (the program stopped while writing it)");
}

TEST(LaunchLog, EmptyLogHasNothing) {
  const LaunchLog log = read_launch_log("");
  EXPECT_TRUE(log.launches.empty());
  EXPECT_TRUE(log.processes.empty());
  EXPECT_TRUE(log.problems.empty());
}

}  // namespace
}  // namespace gridfuzz::watch
