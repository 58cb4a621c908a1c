// JUnit XML parsed back: one testcase per row, failures with replay and observed/oracle text,
// skipped rows, counts that add up, and escaping that keeps the XML well-formed.
#include <gtest/gtest.h>

#include "../core/split_output.hpp"
#include "crafted_rows.hpp"
#include "gridfuzz/reports/baseline_diff.hpp"
#include "gridfuzz/reports/junit.hpp"
#include "tiny_xml.hpp"

namespace gridfuzz::reports {
namespace {

using testing::make_row;
using testing::TinyXmlParser;

std::vector<CsvRow> mixed_rows() {
  std::vector<CsvRow> rows;
  rows.push_back(make_row("gguf.moe_vec", "fixed", {{"tokens", "64"}}));                     // pass
  rows.push_back(testing::moe_vec_legacy_row(8192));                                         // expected-fail
  CsvRow fail = make_row("gguf.moe_vec", "fixed", {{"tokens", "8192"}});
  fail.set("oracle", "mismatch:12");
  fail.set("verdict", "fail:mismatch");
  rows.push_back(fail);
  CsvRow mismatch = make_row("affine.qmm", "legacy", {{"tokens", "70000"}, {"vocab", "32000"}});
  mismatch.set("predicted", "refuse:grid.z");
  mismatch.set("verdict", "model-mismatch");
  rows.push_back(mismatch);
  CsvRow skipped = make_row("affine.qmm", "fixed", {{"tokens", "4194304"}, {"vocab", "4194304"}});
  skipped.set("observed", "skipped:exceeds --max-bytes");
  skipped.set("oracle", "-");
  skipped.set("verdict", "skipped");
  rows.push_back(skipped);
  CsvRow unexpected = testing::moe_vec_legacy_row(8193);
  unexpected.set("observed", "accept");
  unexpected.set("verdict", "unexpected-pass");
  rows.push_back(unexpected);
  return rows;
}

TEST(Junit, ParsesBackWithOneTestcasePerRow) {
  const auto rows = mixed_rows();
  const std::string xml = render_junit(rows);
  const testing::XmlElement root = TinyXmlParser(xml).parse();
  EXPECT_EQ(root.name, "testsuites");
  EXPECT_EQ(root.attr("tests"), std::to_string(rows.size()));
  EXPECT_EQ(root.attr("failures"), "3");
  EXPECT_EQ(root.attr("skipped"), "1");

  const auto cases = root.all("testcase");
  ASSERT_EQ(cases.size(), rows.size());
  EXPECT_EQ(root.all("failure").size(), 3u);
  EXPECT_EQ(root.all("skipped").size(), 1u);
  // Suites: gguf.moe_vec fixed, gguf.moe_vec legacy, affine.qmm legacy, affine.qmm fixed.
  const auto suites = root.all("testsuite");
  EXPECT_EQ(suites.size(), 4u);
  std::size_t suite_tests = 0, suite_failures = 0;
  for (const auto* s : suites) {
    suite_tests += std::stoul(s->attr("tests"));
    suite_failures += std::stoul(s->attr("failures"));
    EXPECT_EQ(std::stoul(s->attr("tests")), s->children.size());
  }
  EXPECT_EQ(suite_tests, rows.size());
  EXPECT_EQ(suite_failures, 3u);

  for (std::size_t i = 0; i < rows.size(); ++i) {
    // Every row is a testcase: classname kernel.variant, name the replay string.
    bool found = false;
    for (const auto* c : cases)
      if (c->attr("name") == rows[i].get("replay") &&
          c->attr("classname") == rows[i].get("kernel") + "." + rows[i].get("variant"))
        found = true;
    EXPECT_TRUE(found) << rows[i].get("replay");
  }
}

TEST(Junit, FailureMessagesCarryReplayAndObservedOracle) {
  const auto rows = mixed_rows();
  const testing::XmlElement root = TinyXmlParser(render_junit(rows)).parse();
  bool saw_mismatch = false;
  for (const auto* c : root.all("testcase")) {
    const auto failures = c->all("failure");
    if (failures.empty()) continue;
    const std::string& message = failures[0]->attr("message");
    EXPECT_NE(message.find("gridfuzz replay '" + c->attr("name") + "'"), std::string::npos) << message;
    EXPECT_NE(message.find("observed "), std::string::npos) << message;
    EXPECT_NE(message.find("oracle "), std::string::npos) << message;
    if (failures[0]->attr("type") == "fail:mismatch") {
      saw_mismatch = true;
      EXPECT_NE(message.find("oracle mismatch:12"), std::string::npos) << message;
      EXPECT_NE(failures[0]->text.find("mismatch:12"), std::string::npos);
    }
  }
  EXPECT_TRUE(saw_mismatch);
}

TEST(Junit, SpecialCharactersAreEscaped) {
  CsvRow row = make_row("plugin.k<&>", "v\"1'", {{"tokens", "1"}});
  row.set("device", "GPU <A&B>");
  row.set("verdict", "fail:mismatch");
  row.set("oracle", "mismatch:1");
  const std::string xml = render_junit({row});
  const testing::XmlElement root = TinyXmlParser(xml).parse();  // throws when malformed
  const auto cases = root.all("testcase");
  ASSERT_EQ(cases.size(), 1u);
  EXPECT_EQ(cases[0]->attr("classname"), "plugin.k<&>.v\"1'");
  EXPECT_EQ(cases[0]->attr("name"), row.get("replay"));
  EXPECT_NE(root.all("testsuite")[0]->attr("name").find("GPU <A&B>"), std::string::npos);
}

TEST(Junit, TinyParserRejectsMalformedXml) {
  // The check must be able to fail: the parser refuses what a careless writer would produce.
  EXPECT_THROW(TinyXmlParser("<a name=\"x<y\"/>").parse(), std::runtime_error);
  EXPECT_THROW(TinyXmlParser("<a>&bogus;</a>").parse(), std::runtime_error);
  EXPECT_THROW(TinyXmlParser("<a><b></a></b>").parse(), std::runtime_error);
  EXPECT_THROW(TinyXmlParser("<a>").parse(), std::runtime_error);
  EXPECT_NO_THROW(TinyXmlParser("<?xml version=\"1.0\"?>\n<a x=\"&amp;\"><b/>t</a>\n").parse());
}

TEST(Junit, StaticRowsAreSkippedWithTheReason) {
  const std::string xml = render_junit({testing::moe_vec_legacy_row(8192, /*on_device=*/false)});
  const testing::XmlElement root = TinyXmlParser(xml).parse();
  const auto skipped = root.all("skipped");
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_NE(skipped[0]->attr("message").find("static"), std::string::npos);
  EXPECT_EQ(root.all("failure").size(), 0u);
}

// The gate's JUnit (diff --junit) is well-formed XML whatever the findings hold: bytes that are
// not UTF-8, control characters, markup. Checked by xmllint (libxml2), not by our parser.
int xmllint_exit(const std::string& xml) {
  return gridfuzz::testing::pipe_text_into(xml, "xmllint --noout -");
}

TEST(GateJunit, FindingsWithBadBytesAreStillValidXml) {
  if (!gridfuzz::testing::have_program("xmllint"))
    GTEST_SKIP() << "xmllint is not installed (Debian libxml2-utils; scripts/lib.sh installs it)";
  BaselineDiff diff;
  const std::string bad = std::string("k\xff\xfe<&>\"'\x01\x1b[2J\x7f") + std::string(1, '\0') + "\xc3\xa9";
  CaseChange change{bad, bad, bad, bad, "pass", "fail:mismatch", bad};
  diff.new_failures.push_back(change);
  diff.new_model_mismatches.push_back(change);
  diff.new_unexpected_passes.push_back(change);
  BoundaryLine line;
  line.kernel = line.variant = line.device = line.axis = line.along = bad;
  diff.moved_boundaries.push_back({line, line, bad});
  TimedCase timed;
  timed.device = timed.kernel = timed.variant = timed.replay = bad;
  timed.comparison.reason = bad;
  diff.slower.push_back(timed);
  diff.matched_cases = 1;
  diff.baseline_devices = diff.current_devices = {bad};
  const std::string xml = render_gate_junit(diff);
  EXPECT_EQ(xmllint_exit(xml), 0) << xml;
  const auto count = gridfuzz::testing::run_with_input(xml, "xmllint --xpath 'count(//testcase/failure)' -");
  EXPECT_EQ(count.out.substr(0, count.out.find('\n')), "5") << count.err;
  // Incomparable runs (devices named with bad bytes): one error testcase, still valid.
  diff.current_devices = {"other"};
  EXPECT_EQ(xmllint_exit(render_gate_junit(diff)), 0) << render_gate_junit(diff);
}

TEST(GateJunit, PassingGateIsOnePassingTestcase) {
  BaselineDiff diff;
  diff.matched_cases = 3;
  const std::string xml = render_gate_junit(diff);
  const testing::XmlElement root = TinyXmlParser(xml).parse();
  ASSERT_EQ(root.all("testcase").size(), 1u);
  EXPECT_EQ(root.all("testcase")[0]->attr("name"), "baseline comparison");
  EXPECT_EQ(root.all("failure").size() + root.all("error").size(), 0u);
  EXPECT_EQ(root.attr("tests"), "1");
}

}  // namespace
}  // namespace gridfuzz::reports
