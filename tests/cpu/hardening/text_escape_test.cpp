// One escaping function per target: what each may and may not let through.
#include <gtest/gtest.h>

#include "gridfuzz/reports/text_escape.hpp"

namespace gridfuzz::reports {
namespace {

TEST(TextEscape, ValidUtf8KeepsGoodSequencesAndReplacesEveryBadByte) {
  EXPECT_EQ(valid_utf8("plain"), "plain");
  EXPECT_EQ(valid_utf8("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"), "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_EQ(valid_utf8("a\xFF" "b"), "a" + fffd + "b");
  EXPECT_EQ(valid_utf8("\xC0\xAF"), fffd + fffd);          // overlong '/'
  EXPECT_EQ(valid_utf8("\xED\xA0\x80"), fffd + fffd + fffd);  // a surrogate
  EXPECT_EQ(valid_utf8("\xF4\x90\x80\x80"), fffd + fffd + fffd + fffd);  // past U+10FFFF
  EXPECT_EQ(valid_utf8("end\xE2\x82"), "end" + fffd + fffd);  // cut short
}

TEST(TextEscape, PrintableUtf8RefusesControlsAndBadBytes) {
  EXPECT_TRUE(is_printable_utf8("gguf.moe_vec/legacy/1/tokens=8192"));
  EXPECT_TRUE(is_printable_utf8("\xC3\xA9"));
  EXPECT_TRUE(is_printable_utf8(""));
  for (const std::string& bad : {std::string("a\nb"), std::string("a\rb"), std::string("a\x1b[31m"),
                                std::string("a\0b", 3), std::string("\x7f"), std::string("\xC2\x85"),  // NEL (C1)
                                std::string("\xFF")})
    EXPECT_FALSE(is_printable_utf8(bad)) << terminal_text(bad);
}

TEST(TextEscape, GnuplotStringCannotEndTheCommand) {
  // Issue 19: a CSV field "gguf.moe_vec\n!touch X\n" became a shell command in the plot script.
  const std::string quoted = gnuplot_string("gguf.moe_vec\n!touch X\n");
  EXPECT_EQ(quoted, "'gguf.moe_vec !touch X '");
  EXPECT_EQ(quoted.find('\n'), std::string::npos);
  EXPECT_EQ(gnuplot_string("it's"), "'it''s'");
  EXPECT_EQ(gnuplot_string("a\rb;c\x1b"), "'a b;c '");
  // The only ' inside are doubled: the literal never closes early.
  const std::string tricky = gnuplot_string("x'\n'; system('id')");
  EXPECT_EQ(tricky, "'x'' ''; system(''id'')'");
}

TEST(TextEscape, XmlEscapeMakesAnyBytesWellFormed) {
  EXPECT_EQ(xml_escape("<a & \"b\" 'c'>"), "&lt;a &amp; &quot;b&quot; &apos;c&apos;&gt;");
  EXPECT_EQ(xml_escape("line\nnext\ttab"), "line&#10;next&#9;tab");
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_EQ(xml_escape(std::string("nul\0esc\x1b", 8)), "nul" + fffd + "esc" + fffd);
  EXPECT_EQ(xml_escape("bad\xFF"), "bad" + fffd);
}

TEST(TextEscape, TerminalTextShowsControlsAsHexAndKeepsText) {
  EXPECT_EQ(terminal_text("\x1b[2Jgone"), "\\x1B[2Jgone");
  EXPECT_EQ(terminal_text(std::string("before\0after", 12)), "before\\x00after");
  EXPECT_EQ(terminal_text("bad\xFF"), "bad\\xFF");
  // Issue 34: a field or an error with a line break forged a line of its own on stderr.
  EXPECT_EQ(terminal_text("two\nlines \xC3\xA9"), "two\\x0Alines \xC3\xA9");
  EXPECT_EQ(terminal_text("x\ngridfuzz: sweep passed\r"), "x\\x0Agridfuzz: sweep passed\\x0D");
  EXPECT_EQ(terminal_text("\xC2\x9B" "31m"), "\\xC2\\x9B31m");  // CSI as a C1 control
}

// Issue 34: report.md passed a field's HTML and Markdown through (a tag, a link, emphasis).
TEST(TextEscape, MarkdownTextMakesNoMarkup) {
  EXPECT_EQ(markdown_text("<img src=x onerror=alert(1)>"), "&lt;img src=x onerror=alert(1)&gt;");
  EXPECT_EQ(markdown_text("[click](javascript:x) **b** `c` a|b ~s~ $m$ #h \\"),
            "\\[click\\](javascript:x) \\*\\*b\\*\\* \\`c\\` a\\|b \\~s\\~ \\$m\\$ \\#h \\\\");
  EXPECT_EQ(markdown_text("&amp; _x_ moe_vec top_k"), "&amp;amp; \\_x\\_ moe_vec top_k");
  EXPECT_EQ(markdown_text("two\nlines"), "two lines");
}

TEST(TextEscape, MarkdownCodeCannotBeEndedByItsText) {
  EXPECT_EQ(markdown_code("k/v/1/n=1"), "`k/v/1/n=1`");
  EXPECT_EQ(markdown_code("a`b"), "``a`b``");
  EXPECT_EQ(markdown_code("`x``"), "``` `x`` ```");
  EXPECT_EQ(markdown_code("<b>|"), "`<b>\\|`");
  EXPECT_EQ(markdown_code(""), "");
}

TEST(TextEscape, TerminalLinesKeepTheLinesGridfuzzComposed) {
  EXPECT_EQ(terminal_lines("gate: failed\n  new failure \x1b[2J\n"), "gate: failed\n  new failure \\x1B[2J\n");
  EXPECT_EQ(terminal_lines("a\r\nb"), "a\\x0D\nb");
  EXPECT_EQ(terminal_lines(""), "");
}

}  // namespace
}  // namespace gridfuzz::reports
