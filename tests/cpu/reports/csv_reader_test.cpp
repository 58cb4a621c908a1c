#include "gridfuzz/reports/csv_reader.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gridfuzz/reports/csv_writer.hpp"
#include "test_support.hpp"

namespace gridfuzz::reports {
namespace {

using testing::valid_row;

std::vector<std::string> column_names() {
  std::vector<std::string> names;
  for (const Column& column : kColumns) names.emplace_back(column.name);
  return names;
}

std::string join(const std::vector<std::string>& fields) {
  std::string line;
  for (const auto& field : fields) {
    if (!line.empty()) line += ',';
    line += field;
  }
  line += '\n';
  return line;
}

// A plain data line for valid_row (none of its values needs quoting except replay).
std::vector<std::string> quoted_fields(const CsvRow& row) {
  const auto values = row.values();
  std::vector<std::string> fields(values.begin(), values.end());
  std::string& replay = fields[*column_index("replay")];
  replay = "\"" + replay + "\"";
  return fields;
}

std::string data_line(const CsvRow& row) { return join(quoted_fields(row)); }

const std::string kHeader = join(column_names());

struct ParseFailure {
  std::string message;
  std::size_t line = 0;
};

ParseFailure parse_failure(const std::string& text, const CsvReadOptions& options = {}) {
  try {
    (void)parse_csv(text, "test.csv", options);
  } catch (const CsvError& error) {
    return {error.what(), error.line()};
  }
  ADD_FAILURE() << "expected CsvError for:\n" << text;
  return {};
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(CsvReader, ReadsRowsWithTheirLines) {
  const auto result = parse_csv(kHeader + data_line(valid_row(1)) + data_line(valid_row(2)), "t");
  ASSERT_EQ(result.rows.size(), 2u);
  EXPECT_EQ(result.rows[0], valid_row(1));
  EXPECT_EQ(result.rows[1], valid_row(2));
  EXPECT_EQ(result.row_lines, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(result.complete_bytes, kHeader.size() + 2 * data_line(valid_row(1)).size());
}

TEST(CsvReader, HeaderOnlyIsZeroRows) {
  EXPECT_TRUE(parse_csv(kHeader, "t").rows.empty());
}

TEST(CsvReader, EmptyFileIsAnError) {
  EXPECT_TRUE(contains(parse_failure("").message, "no header"));
}

TEST(CsvReader, MissingColumnIsNamed) {
  std::vector<std::string> names = column_names();
  names.erase(names.begin() + *column_index("gbps"));
  const ParseFailure failure = parse_failure(join(names));
  EXPECT_TRUE(contains(failure.message, "missing column 'gbps'")) << failure.message;
  EXPECT_EQ(failure.line, 1u);

  names.erase(names.begin() + *column_index("regs"));
  const ParseFailure two = parse_failure(join(names));
  EXPECT_TRUE(contains(two.message, "'regs'")) << two.message;
  EXPECT_TRUE(contains(two.message, "'gbps'")) << two.message;
}

TEST(CsvReader, MissingSchemaColumnSaysNotOurs) {
  std::vector<std::string> names = column_names();
  names.erase(names.begin());
  EXPECT_TRUE(contains(parse_failure(join(names)).message, "missing column 'schema'"));
}

TEST(CsvReader, DuplicateColumnIsAnError) {
  std::vector<std::string> names = column_names();
  names.push_back("kernel");
  EXPECT_TRUE(contains(parse_failure(join(names)).message, "duplicate column 'kernel'"));
}

TEST(CsvReader, OtherMajorVersionIsAnErrorWithItsLine) {
  CsvRow row = valid_row();
  row.set("schema", "2.0");
  const ParseFailure failure = parse_failure(kHeader + data_line(valid_row()) + data_line(row));
  EXPECT_EQ(failure.line, 3u);
  EXPECT_TRUE(contains(failure.message, "2.0")) << failure.message;
  EXPECT_TRUE(contains(failure.message, "major")) << failure.message;
  EXPECT_TRUE(contains(failure.message, "test.csv:3:")) << failure.message;
}

TEST(CsvReader, OtherMajorIsReportedBeforeItsMissingColumns) {
  std::vector<std::string> names = column_names();
  names[*column_index("verdict")] = "outcome";  // a 2.x file renamed it
  std::vector<std::string> fields(kColumnCount, "");
  fields[0] = "2.3";
  const ParseFailure failure = parse_failure(join(names) + join(fields));
  EXPECT_TRUE(contains(failure.message, "2.3")) << failure.message;
}

TEST(CsvReader, NewerMinorExtraColumnsAreIgnoredAndItsValuesNotPoliced) {
  std::vector<std::string> names = column_names();
  names.insert(names.begin() + 5, "sm_clock_mhz");  // order does not matter to the reader
  CsvRow row = valid_row();
  row.set("schema", std::to_string(kSchemaMajor) + "." + std::to_string(kSchemaMinor + 1));
  row.set("verdict", "flaky");  // a word the next minor may have added
  std::vector<std::string> fields = quoted_fields(row);
  fields.insert(fields.begin() + 5, "1980");
  const auto result = parse_csv(join(names) + join(fields), "t");
  ASSERT_EQ(result.rows.size(), 1u);
  EXPECT_EQ(result.rows[0], row);
  EXPECT_EQ(result.ignored_columns, (std::vector<std::string>{"sm_clock_mhz"}));
}

// A file of schema 1.0 has no device_index (appended by 1.1): it reads, the column empty.
TEST(CsvReader, OlderMinorFileWithoutALaterColumnReads) {
  std::vector<std::string> names = column_names();
  const std::size_t at = *column_index("device_index");
  names.erase(names.begin() + at);
  CsvRow row = valid_row();
  row.set("schema", "1.0");
  std::vector<std::string> fields = quoted_fields(row);
  fields.erase(fields.begin() + at);
  const auto result = parse_csv(join(names) + join(fields) + join(fields), "old.csv");
  ASSERT_EQ(result.rows.size(), 2u);
  EXPECT_EQ(result.rows[0].get("device_index"), "");
  EXPECT_EQ(result.rows[0].get("verdict"), "expected-fail");
  EXPECT_EQ(result.rows[0].get("schema"), "1.0");
  EXPECT_TRUE(parse_csv(join(names), "header-only.csv").rows.empty());

  // One row of 1.1 makes the column required.
  CsvRow newer = valid_row();
  std::vector<std::string> newer_fields = quoted_fields(newer);
  newer_fields.erase(newer_fields.begin() + at);
  const ParseFailure failure = parse_failure(join(names) + join(fields) + join(newer_fields));
  EXPECT_TRUE(contains(failure.message, "missing column 'device_index'")) << failure.message;
}

// A file of schema 1.4 has no `tier` (appended by 1.5): its rows read with no tier; a 1.5 row
// needs the column, and keeps its word as a value.
TEST(CsvReader, FileOfSchema14ReadsWithoutTier) {
  const std::size_t tier_at = *column_index("tier");
  ASSERT_EQ(column_count_of_minor(4), tier_at);
  std::vector<std::string> names = column_names();
  names.resize(tier_at);
  CsvRow row = valid_row();
  row.set("schema", "1.4");
  row.set_double("case_ms", 12.5);
  std::vector<std::string> fields = quoted_fields(row);
  fields.resize(tier_at);
  const auto result = parse_csv(join(names) + join(fields), "v14.csv");
  ASSERT_EQ(result.rows.size(), 1u);
  EXPECT_EQ(result.rows[0].get("tier"), "");
  EXPECT_FALSE(result.rows[0].tier().has_value());
  EXPECT_EQ(result.rows[0].get_double("case_ms"), 12.5);
  EXPECT_TRUE(result.ignored_columns.empty());

  CsvRow newer = valid_row();  // 1.5 and later
  newer.set("tier", "random");
  std::vector<std::string> newer_fields = quoted_fields(newer);
  newer_fields.resize(tier_at);
  const ParseFailure failure = parse_failure(join(names) + join(fields) + join(newer_fields));
  EXPECT_TRUE(contains(failure.message, "missing columns 'tier'")) << failure.message;

  const auto read = parse_csv(kHeader + data_line(row) + data_line(newer), "mixed.csv");
  ASSERT_EQ(read.rows.size(), 2u);
  EXPECT_FALSE(read.rows[0].tier().has_value());
  EXPECT_EQ(read.rows[1].tier(), CaseTier::random);
  EXPECT_EQ(read.rows[1].get("tier"), "random");
}

// A file of schema 1.5 has none of 1.6's columns: its rows read with them empty, the tier kept.
TEST(CsvReader, FileOfSchema15ReadsWithoutTheColumnsOf16) {
  const std::size_t count = column_count_of_minor(5);
  ASSERT_EQ(count, *column_index("driver_release"));
  std::vector<std::string> names = column_names();
  names.resize(count);
  CsvRow row = valid_row();
  row.set("schema", "1.5");
  row.set("tier", "profiles");
  std::vector<std::string> fields = quoted_fields(row);
  fields.resize(count);
  const auto result = parse_csv(join(names) + join(fields), "v15.csv");
  ASSERT_EQ(result.rows.size(), 1u);
  EXPECT_EQ(result.rows[0].tier(), CaseTier::profiles);
  for (const char* column : {"driver_release", "started", "finding"}) EXPECT_EQ(result.rows[0].get(column), "") << column;
  // A 1.6 row in such a file lacks its columns.
  CsvRow newer = valid_row();
  std::vector<std::string> newer_fields = quoted_fields(newer);
  newer_fields.resize(count);
  const ParseFailure failure = parse_failure(join(names) + join(fields) + join(newer_fields));
  EXPECT_TRUE(contains(failure.message, "missing columns 'driver_release', 'started', 'finding'")) << failure.message;
}

// A file of schema 1.6 has no time_samples_ms: its rows read with it empty (diff then judges them
// by interval separation).
TEST(CsvReader, FileOfSchema16ReadsWithoutTheSamples) {
  const std::size_t count = column_count_of_minor(6);
  ASSERT_EQ(count, *column_index("time_samples_ms"));
  std::vector<std::string> names = column_names();
  names.resize(count);
  CsvRow row = valid_row();
  row.set("schema", "1.6");
  row.set("time_ms_median", "1.5");
  row.set("samples", "3");
  std::vector<std::string> fields = quoted_fields(row);
  fields.resize(count);
  const auto result = parse_csv(join(names) + join(fields), "v16.csv");
  ASSERT_EQ(result.rows.size(), 1u);
  EXPECT_EQ(result.rows[0].get("time_ms_median"), "1.5");
  EXPECT_EQ(result.rows[0].get("time_samples_ms"), "");
}

// 1.7's check: the samples are reals separated by single spaces, as many as `samples` says.
TEST(CsvReader, TheSamplesAreRealsAsManyAsTheCount) {
  CsvRow row = valid_row();
  row.set("time_ms_median", "1.5");
  row.set("samples", "3");
  row.set("time_samples_ms", "1.5 1.25 2");
  EXPECT_EQ(parse_csv(kHeader + data_line(row), "ok.csv").rows[0].get_reals("time_samples_ms"),
            (std::vector<double>{1.5, 1.25, 2}));
  for (const char* bad : {"1.5  1.25 2", " 1.5 1.25 2", "1.5 1.25 2 ", "1.5;1.25;2", "1.5 fast 2"}) {
    CsvRow b = row;
    b.set("time_samples_ms", bad);
    EXPECT_TRUE(contains(parse_failure(kHeader + data_line(b)).message, "is not numbers separated by single spaces"))
        << bad;
  }
  row.set("time_samples_ms", "1.5 1.25");
  EXPECT_TRUE(contains(parse_failure(kHeader + data_line(row)).message, "holds 2 samples, `samples` says 3"));
}

// 1.6's checks: `started` is a UTC time of one form, and a finding stands only on an expected-fail.
TEST(CsvReader, StartedIsAUtcTimeAndAFindingNeedsAnExpectedFail) {
  CsvRow row = valid_row();
  row.set("verdict", "expected-fail");
  row.set("finding", "vllm-gguf.md#finding-5");
  row.set("started", "2026-12-01T07:22:54.123Z");
  EXPECT_EQ(parse_csv(kHeader + data_line(row), "ok.csv").rows.size(), 1u);
  for (const char* bad : {"2026-12-01 07:22:54", "2026-12-01T07:22:54Z", "2026-02-30T07:22:54.123Z",
                          "2026-12-01T24:00:00.000Z", "2026-12-01T07:22:54.123+01:00"}) {
    CsvRow b = row;
    b.set("started", bad);
    EXPECT_TRUE(contains(parse_failure(kHeader + data_line(b)).message, "is not a UTC time")) << bad;
  }
  row.set("verdict", "fail:fault");
  EXPECT_TRUE(contains(parse_failure(kHeader + data_line(row)).message, "not expected-fail"));
}

TEST(CsvReader, BadVocabularyIsAnErrorWithItsLineUnlessUnchecked) {
  CsvRow row = valid_row();
  row.set("verdict", "fial:mismatch");
  const std::string text = kHeader + data_line(row);
  const ParseFailure failure = parse_failure(text);
  EXPECT_EQ(failure.line, 2u);
  EXPECT_TRUE(contains(failure.message, "'fial:mismatch'")) << failure.message;
  EXPECT_EQ(parse_csv(text, "t", CsvReadOptions{.check_values = false}).rows.at(0), row);
}

TEST(CsvReader, WrongFieldCountNamesTheLine) {
  std::string short_line = data_line(valid_row(2));
  short_line.erase(0, short_line.find(',') + 1);  // drop one field
  const ParseFailure failure =
      parse_failure(kHeader + data_line(valid_row(1)) + short_line + data_line(valid_row(3)));
  EXPECT_EQ(failure.line, 3u);
  EXPECT_TRUE(contains(failure.message, "expected " + std::to_string(kColumnCount) + " fields, found " +
                                            std::to_string(kColumnCount - 1)))
      << failure.message;
}

TEST(CsvReader, LineNumbersCountEmbeddedLineBreaks) {
  CsvRow multi_line = valid_row(1);
  multi_line.set("oracle", "mismatch:2\nat row 7\nat row 9");
  testing::ScratchDir dir;
  const auto path = dir.file("lines.csv");
  {
    CsvWriter writer(path, CsvWriterOptions{.check_values = false});  // line breaks: the text layer's case
    writer.write(multi_line);
  }
  testing::append_text(path, "1.0,too,few\n");
  const std::string text = testing::read_text(path);
  // Read as the text layer, as it was written: checked values refuse the line breaks themselves,
  // at the line the row starts on (the streaming reader stops at a file's first error).
  const ParseFailure failure = parse_failure(text, CsvReadOptions{.check_values = false});
  EXPECT_EQ(failure.line, 5u);  // header, a row over three lines, then the bad one
  const ParseFailure checked = parse_failure(text);
  EXPECT_EQ(checked.line, 2u);
  EXPECT_TRUE(contains(checked.message, "control character")) << checked.message;
}

// The reader fills a 64 KiB buffer at a time: line breaks counted across its refills too.
TEST(CsvReader, RowLinesCountLineBreaksOfAFieldLongerThanTheBuffer) {
  constexpr std::size_t kBreaks = 100000;  // 200 KB of "x\n", several refills
  std::string long_value;
  for (std::size_t i = 0; i < kBreaks; ++i) long_value += "x\n";
  std::vector<std::string> fields = quoted_fields(valid_row(1));
  fields[*column_index("oracle")] = "\"" + long_value + "\"";
  const std::string text = kHeader + join(fields) + data_line(valid_row(2)) + "\n" + data_line(valid_row(3));
  const auto result = parse_csv(text, "t", CsvReadOptions{.check_values = false});
  ASSERT_EQ(result.rows.size(), 3u);
  EXPECT_EQ(result.rows[0].get("oracle"), long_value);
  // Row 1 starts on line 2 and spans kBreaks + 1 lines; a blank line sits between rows 2 and 3.
  EXPECT_EQ(result.row_lines, (std::vector<std::size_t>{2, 3 + kBreaks, 5 + kBreaks}));
}

TEST(CsvReader, UnterminatedQuoteInTheMiddleIsAnError) {
  std::string broken = data_line(valid_row(2));
  broken.replace(broken.find("moe_vec,"), 8, "\"moe_vec,");  // an opening quote never closed
  const ParseFailure failure =
      parse_failure(kHeader + data_line(valid_row(1)) + broken + data_line(valid_row(3)));
  // The quote swallows text up to the next quote (the replay field's), and what follows that
  // cannot follow a closing quote: the error points at the broken line.
  EXPECT_EQ(failure.line, 3u);
  EXPECT_TRUE(contains(failure.message, "quote")) << failure.message;
}

TEST(CsvReader, UnterminatedQuoteSwallowingEverythingNamesWhereItOpened) {
  std::vector<std::string> fields(kColumnCount, "");
  fields[0] = "1.0";
  fields[1] = "\"run";  // never closed; the later lines hold no quote to close it
  const ParseFailure failure = parse_failure(kHeader + join(fields) + "1.0\n1.0\n",
                                             CsvReadOptions{.check_values = false});
  EXPECT_EQ(failure.line, 2u);
  EXPECT_TRUE(contains(failure.message, "unterminated quoted field")) << failure.message;
}

TEST(CsvReader, MalformedQuotingIsAnErrorWithItsLine) {
  const std::string row = data_line(valid_row());
  std::string stray_quote = row;
  stray_quote.replace(stray_quote.find("moe_vec,"), 8, "moe\"vec,");
  ParseFailure failure = parse_failure(kHeader + row + stray_quote);
  EXPECT_EQ(failure.line, 3u);
  EXPECT_TRUE(contains(failure.message, "quote inside an unquoted field")) << failure.message;

  std::string after_quote = row;
  after_quote.replace(after_quote.find("moe_vec,"), 8, "\"moe\"vec,");
  failure = parse_failure(kHeader + after_quote);
  EXPECT_EQ(failure.line, 2u);
  EXPECT_TRUE(contains(failure.message, "after the closing quote")) << failure.message;

  failure = parse_failure(kHeader + "1.0\rx\n");
  EXPECT_EQ(failure.line, 2u);
}

TEST(CsvReader, TrailingPartialRowIsDropped) {
  const std::string row = data_line(valid_row(1));
  for (const std::size_t cut : {std::size_t{1}, std::size_t{4}, row.size() / 2, row.size() - 2,
                                row.size() - 1}) {
    const auto result = parse_csv(kHeader + row + row.substr(0, cut), "t");
    EXPECT_EQ(result.rows.size(), 1u) << cut;
    EXPECT_EQ(result.dropped_partial_line, 3u) << cut;
    EXPECT_EQ(result.complete_bytes, kHeader.size() + row.size()) << cut;
  }
}

TEST(CsvReader, PartialRowWithTooManyFieldsIsCorruptNotPartial) {
  const std::string too_many(kColumnCount + 2, ',');
  const ParseFailure failure = parse_failure(kHeader + "1.0" + too_many);
  EXPECT_EQ(failure.line, 2u);
}

TEST(CsvReader, AcceptsCrlfBlankLinesAndABom) {
  std::string crlf_row = data_line(valid_row(1));
  crlf_row.back() = '\r';
  crlf_row += '\n';
  std::string crlf_header = kHeader;
  crlf_header.back() = '\r';
  crlf_header += '\n';
  const auto result = parse_csv(
      "\xEF\xBB\xBF" + crlf_header + "\n" + crlf_row + "\r\n" + data_line(valid_row(2)), "t");
  ASSERT_EQ(result.rows.size(), 2u);
  EXPECT_EQ(result.rows[0], valid_row(1));
  EXPECT_EQ(result.row_lines[1], 5u);
}

TEST(CsvReader, MissingFileIsACsvError) {
  testing::ScratchDir dir;
  EXPECT_THROW((void)read_csv(dir.file("absent.csv")), CsvError);
}

}  // namespace
}  // namespace gridfuzz::reports
