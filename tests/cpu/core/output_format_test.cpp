// The pieces of readable output: the JSON writer (every string escaped, checked with jq, a parser
// we did not write) and the progress display outside a terminal (a fake clock).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "gridfuzz/reports/text_escape.hpp"
#include "gridfuzz/app/json_writer.hpp"
#include "gridfuzz/app/progress.hpp"
#include "split_output.hpp"

namespace gridfuzz::app {
namespace {

TEST(JsonWriter, NestsAndSeparates) {
  JsonWriter j;
  j.begin_object().field("a", 1).key("b").begin_array().value("x").value(true).null().end_array();
  j.key("c").begin_object().end_object().field("d", 0.5).field("e", std::vector<std::string>{"p", "q"}).end_object();
  EXPECT_EQ(j.str(), "{\"a\":1,\"b\":[\"x\",true,null],\"c\":{},\"d\":0.5,\"e\":[\"p\",\"q\"]}\n");
}

TEST(JsonWriter, NumbersJsonCannotHoldAreNull) {
  JsonWriter j;
  j.begin_array().value(std::numeric_limits<double>::infinity()).value(std::nan("")).value(1e300).end_array();
  EXPECT_EQ(j.str(), "[null,null,1e+300]\n");
}

TEST(JsonWriter, EveryStringIsEscapedAndValidUtf8) {
  const std::string nasty = std::string("quote\" back\\ nl\n tab\t nul") + std::string(1, '\0') + " esc\x1b del\x7f" +
                            " bad\xff\xc3 ok\xc3\xa9 \xe2\x82\xac";
  const std::string expected = reports::valid_utf8(nasty);
  JsonWriter j;
  j.begin_object().field(nasty, nasty).end_object();
  const std::string json = j.str();
  EXPECT_EQ(json.find('\x1b'), std::string::npos) << json;
  EXPECT_EQ(json.find('\n'), json.size() - 1) << json;
  if (!testing::have_program("jq")) GTEST_SKIP() << "jq is not installed (Debian jq; scripts/lib.sh installs it)";
  char path[] = "/tmp/gridfuzz-json-XXXXXX";
  const int fd = mkstemp(path);
  ASSERT_GE(fd, 0);
  ::close(fd);
  std::ofstream(path, std::ios::binary) << json;
  // jq decodes the value back: the text as valid UTF-8, byte for byte.
  const auto value = testing::run_split("jq -j '.[]' < " + testing::shell_quote(path));
  const auto key = testing::run_split("jq -j 'keys[0]' < " + testing::shell_quote(path));
  ::unlink(path);
  EXPECT_EQ(value.exit_code, 0) << value.err;
  EXPECT_EQ(value.out, expected);
  EXPECT_EQ(key.out, expected);
}

struct FakeClock {
  std::chrono::steady_clock::time_point t{};
  void advance(double seconds) {
    t += std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
  }
};

TEST(Progress, OutsideATerminalRowsOnStdoutAndALineEveryInterval) {
  FakeClock clock;
  std::ostringstream rows, status;
  ProgressOptions o;
  o.terminal = false;
  o.interval_s = 5;
  o.rows = &rows;
  o.status = &status;
  o.now = [&] { return clock.t; };
  Progress p(100, o);
  for (int i = 0; i < 10; ++i) {
    clock.advance(1);
    p.step("row " + std::to_string(i), false);
  }
  // Every row line, in order; a progress line at 5 s and at 10 s.
  const std::string printed = rows.str();
  EXPECT_EQ(printed.substr(0, 12), "row 0\nrow 1\n");
  EXPECT_EQ(std::count(printed.begin(), printed.end(), '\n'), 10);
  EXPECT_EQ(status.str(),
            "progress [5/100] 5% 1.0 cases/s ETA 1m35s\n"
            "progress [10/100] 10% 1.0 cases/s ETA 1m30s\n");
  p.finish();
  EXPECT_NE(status.str().find("progress [10/100] 10% 1.0 cases/s ETA 1m30s (done)\n"), std::string::npos)
      << status.str();
}

TEST(Progress, MoreCasesThanPlannedAndNoRowStream) {
  FakeClock clock;
  std::ostringstream status;
  ProgressOptions o;
  o.terminal = false;
  o.interval_s = 0;
  o.status = &status;
  o.now = [&] { return clock.t; };
  Progress p(1, o);
  clock.advance(2);
  p.step("a", false);
  p.step("b", true);
  EXPECT_EQ(p.status_line(), "[2/2] 100% 1.0 cases/s ETA 0s");
}

TEST(Progress, DurationFormat) {
  EXPECT_EQ(format_duration(0), "0s");
  EXPECT_EQ(format_duration(59.4), "59s");
  EXPECT_EQ(format_duration(187), "3m07s");
  EXPECT_EQ(format_duration(7500), "2h05m");
  EXPECT_EQ(format_duration(-1), "?");
}

}  // namespace
}  // namespace gridfuzz::app
