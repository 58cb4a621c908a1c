#include "gridfuzz/reports/csv_writer.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "gridfuzz/reports/csv_reader.hpp"
#include "test_support.hpp"

namespace gridfuzz::reports {
namespace {

using testing::header_text;
using testing::read_text;
using testing::valid_row;
using testing::write_text;

// Runs `open` and returns the CsvError message, or "" if nothing was thrown.
template <typename Open>
std::string error_of(Open open) {
  try {
    open();
  } catch (const CsvError& error) {
    return error.what();
  }
  return "";
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

class CsvWriterTest : public ::testing::Test {
 protected:
  testing::ScratchDir dir;
  std::filesystem::path path = dir.file("report.csv");
};

TEST_F(CsvWriterTest, NewFileGetsTheHeaderAtOnce) {
  CsvWriter writer(path);
  // Before any row: a sweep killed now still leaves a readable, empty report.
  EXPECT_EQ(read_text(path), header_text());
  EXPECT_TRUE(read_rows(path).empty());
  EXPECT_EQ(writer.rows_at_open(), 0u);
}

TEST_F(CsvWriterTest, EachRowIsInTheFileWhenWriteReturns) {
  CsvWriter writer(path);
  writer.write(valid_row(1));
  EXPECT_EQ(read_rows(path).size(), 1u);  // read while the writer is still open
  writer.write(valid_row(2));
  const auto rows = read_rows(path);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1], valid_row(2));
  EXPECT_EQ(writer.rows_written(), 2u);
}

TEST_F(CsvWriterTest, EmptyExistingFileGetsTheHeader) {
  write_text(path, "");
  { CsvWriter writer(path); }
  EXPECT_EQ(read_text(path), header_text());
}

TEST_F(CsvWriterTest, HeaderIsWrittenOnceAcrossSessions) {
  for (int session = 0; session < 3; ++session) {
    CsvWriter writer(path);
    EXPECT_EQ(writer.rows_at_open(), static_cast<std::size_t>(session));
    writer.write(valid_row(session));
  }
  const std::string text = read_text(path);
  EXPECT_TRUE(text.starts_with(header_text()));
  EXPECT_EQ(text.find(header_text(), 1), std::string::npos);
  EXPECT_EQ(read_rows(path).size(), 3u);
}

TEST_F(CsvWriterTest, PartialLastLineIsCutAndTheNextRowStartsOnAFreshLine) {
  { CsvWriter writer(path); writer.write(valid_row(1)); }
  const std::string finished = read_text(path);
  testing::append_text(path, "1.0,nightly,moe_vec-legacy-2,NVIDIA H");  // killed here

  const CsvReadResult before = read_csv(path);
  EXPECT_EQ(before.rows.size(), 1u);
  EXPECT_EQ(before.dropped_partial_line, 3u);

  {
    CsvWriter writer(path);
    EXPECT_EQ(writer.truncated_partial_line(), 3u);
    EXPECT_EQ(writer.rows_at_open(), 1u);
    EXPECT_EQ(read_text(path), finished);  // cut back to the last finished row
    writer.write(valid_row(2));
  }
  const CsvReadResult after = read_csv(path);
  ASSERT_EQ(after.rows.size(), 2u);
  EXPECT_EQ(after.rows[1], valid_row(2));
  EXPECT_EQ(after.row_lines[1], 3u);
  EXPECT_FALSE(after.dropped_partial_line.has_value());
}

TEST_F(CsvWriterTest, PartialHeaderIsRewritten) {
  write_text(path, header_text().substr(0, 25));  // killed while writing the header
  {
    CsvWriter writer(path);
    EXPECT_TRUE(writer.truncated_partial_line().has_value());
    writer.write(valid_row());
  }
  EXPECT_EQ(read_rows(path).size(), 1u);
  EXPECT_TRUE(read_text(path).starts_with(header_text()));
}

TEST_F(CsvWriterTest, ForeignTextWithoutHeaderIsRefused) {
  write_text(path, "hello");
  const std::string message = error_of([&] { CsvWriter writer(path); });
  EXPECT_TRUE(contains(message, "no header")) << message;
  EXPECT_EQ(read_text(path), "hello");
}

TEST_F(CsvWriterTest, RenamedColumnInHeaderIsRefused) {
  std::string header = header_text();
  header.replace(header.find("verdict"), 7, "outcome");
  write_text(path, header);
  const std::string message = error_of([&] { CsvWriter writer(path); });
  EXPECT_TRUE(contains(message, "cannot append")) << message;
  EXPECT_TRUE(contains(message, "verdict")) << message;
  EXPECT_EQ(read_text(path), header);  // untouched
}

TEST_F(CsvWriterTest, ExtraOrReorderedColumnsAreRefused) {
  // A newer minor's file (an extra column) reads fine but must not get our rows appended.
  write_text(path, header_text().substr(0, header_text().size() - 1) + ",sm_clock_mhz\n");
  std::string message = error_of([&] { CsvWriter writer(path); });
  EXPECT_TRUE(contains(message, "header differs")) << message;
  EXPECT_TRUE(contains(message, std::to_string(kColumnCount + 1) + " columns")) << message;

  std::string swapped = header_text();
  swapped.replace(swapped.find("grid_x,grid_y"), 13, "grid_y,grid_x");
  write_text(path, swapped);
  message = error_of([&] { CsvWriter writer(path); });
  EXPECT_TRUE(contains(message, "column 21 is 'grid_y'")) << message;
}

TEST_F(CsvWriterTest, OtherMajorVersionIsRefused) {
  { CsvWriter writer(path); writer.write(valid_row()); }
  std::string text = read_text(path);
  text.replace(header_text().size(), 3, "2.0");  // the row's schema field
  write_text(path, text);
  const std::string message = error_of([&] { CsvWriter writer(path); });
  EXPECT_TRUE(contains(message, "2.0")) << message;
  EXPECT_TRUE(contains(message, "major")) << message;
}

// A 1.1 file lacks the kernel-time columns (1.0 also device_index): rows of the current minor
// appended under its header would be a silent mix.
TEST_F(CsvWriterTest, OlderMinorFileIsNotAppendedTo) {
  std::string header = header_text();
  const std::size_t cut = header.rfind(",kernel_ms_median");
  header = header.substr(0, cut) + "\n";
  const std::size_t old_columns = *column_index("device_index") + 1;
  const std::string old_file = header + "1.1" + std::string(old_columns - 1, ',') + "\n";
  write_text(path, old_file);
  const std::string message = error_of([&] { CsvWriter writer(path); });
  EXPECT_TRUE(contains(message, std::to_string(old_columns) + " columns")) << message;
  EXPECT_TRUE(contains(message, "schema " + std::string(kSchemaVersion))) << message;
  EXPECT_EQ(read_text(path), old_file);
}

// A 1.4 file (a killed sweep of the build before `tier`) is appended to in 1.4, so it resumes: its
// header stays, each new row says 1.4 and leaves out the tier, and the file reads back whole.
TEST_F(CsvWriterTest, FileOfSchema14IsAppendedToIn14) {
  std::string header = header_text();
  header = header.substr(0, header.rfind(",tier")) + "\n";
  CsvRow old = valid_row(1);
  old.set("schema", "1.4");
  std::string old_line;
  for (std::size_t i = 0; i < column_count_of_minor(4); ++i) {
    if (i) old_line += ',';
    const bool quoted = kColumns[i].name == "replay";  // the one value of valid_row with a comma
    if (quoted) old_line += '"';
    old_line += old.at(i);
    if (quoted) old_line += '"';
  }
  write_text(path, header + old_line + "\n");
  {
    CsvWriter writer(path);
    EXPECT_EQ(writer.minor(), 4);
    EXPECT_EQ(writer.rows_at_open(), 1u);
    CsvRow row = valid_row(2);
    row.set("tier", "random");
    writer.write(row);
  }
  const std::string text = read_text(path);
  EXPECT_TRUE(text.starts_with(header)) << text;
  const auto rows = read_rows(path);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].get("schema"), "1.4");
  EXPECT_EQ(rows[1].get("case_id"), valid_row(2).get("case_id"));
  EXPECT_FALSE(rows[1].tier().has_value());
  EXPECT_EQ(rows[1].get("verdict"), "expected-fail");
}

// The tier a writer of this schema writes reads back as the same value.
TEST_F(CsvWriterTest, TierRoundTrips) {
  {
    CsvWriter writer(path);
    EXPECT_EQ(writer.minor(), kSchemaMinor);
    for (const CaseTier tier : kCaseTiers) {
      CsvRow row = valid_row(static_cast<int>(tier));
      row.set("tier", std::string(to_string(tier)));
      writer.write(row);
    }
    writer.write(valid_row(100));  // no tier: a case no sweep made
  }
  const auto rows = read_rows(path);
  ASSERT_EQ(rows.size(), std::size(kCaseTiers) + 1);
  for (std::size_t i = 0; i < std::size(kCaseTiers); ++i) {
    EXPECT_EQ(rows[i].tier(), kCaseTiers[i]) << i;
    EXPECT_EQ(rows[i].get("schema"), kSchemaVersion);
  }
  EXPECT_FALSE(rows.back().tier().has_value());
  EXPECT_EQ(rows.back().get("tier"), "");
}

TEST_F(CsvWriterTest, CorruptFileIsRefusedWithItsLine) {
  write_text(path, header_text() + "1.0,\"unterminated\n" + "1.0\n");
  const std::string message = error_of([&] { CsvWriter writer(path); });
  EXPECT_TRUE(contains(message, ":2:")) << message;
}

TEST_F(CsvWriterTest, RowOfAnotherMajorOrNewerMinorIsRefusedEvenUnchecked) {
  CsvWriter writer(path, CsvWriterOptions{.check_values = false});
  const std::string newer_minor = std::to_string(kSchemaMajor) + "." + std::to_string(kSchemaMinor + 1);
  for (const std::string& version : std::vector<std::string>{"2.0", "0.9", newer_minor, "", "one"}) {
    CsvRow row = valid_row();
    row.set("schema", version);
    EXPECT_THROW(writer.write(row), CsvError) << version;
  }
  EXPECT_EQ(read_text(path), header_text());
}

TEST_F(CsvWriterTest, RowFailingTheValueChecksIsNotWritten) {
  CsvWriter writer(path);
  CsvRow row = valid_row();
  row.set("verdict", "fail:");
  const std::string message = error_of([&] { writer.write(row); });
  EXPECT_TRUE(contains(message, "verdict")) << message;
  EXPECT_TRUE(contains(message, "'fail:'")) << message;
  EXPECT_EQ(read_text(path), header_text());
  EXPECT_EQ(writer.rows_written(), 0u);
}

TEST_F(CsvWriterTest, SecondWriterOnTheSameFileIsRefused) {
  CsvWriter first(path);
  const std::string message = error_of([&] { CsvWriter second(path); });
  EXPECT_TRUE(contains(message, "another writer")) << message;
}

TEST_F(CsvWriterTest, LockIsReleasedWhenTheWriterGoes) {
  { CsvWriter first(path); }
  EXPECT_NO_THROW(CsvWriter second(path));
}

TEST_F(CsvWriterTest, MovedWriterKeepsWriting) {
  CsvWriter first(path);
  CsvWriter moved = std::move(first);
  moved.write(valid_row());
  EXPECT_EQ(read_rows(path).size(), 1u);
}

TEST_F(CsvWriterTest, UnopenablePathIsAnError) {
  const std::string message =
      error_of([&] { CsvWriter writer(dir.file("no-such-dir") / "report.csv"); });
  EXPECT_TRUE(contains(message, "no-such-dir")) << message;
}

TEST_F(CsvWriterTest, QuotesOnlyWhatNeedsQuoting) {
  CsvWriter writer(path, CsvWriterOptions{.check_values = false});
  CsvRow row;
  row.set("kernel", "moe_vec");
  row.set("oracle", "mismatch:3, first at [1,2]");
  row.set("replay", "say \"hi\"\r\nbye");
  writer.write(row);
  const std::string line = read_text(path).substr(header_text().size());
  EXPECT_TRUE(contains(line, ",moe_vec,")) << line;
  EXPECT_TRUE(contains(line, ",\"mismatch:3, first at [1,2]\",")) << line;
  // device_index, the four kernel-time, the three oracle-count, the ten phase columns, tier,
  // the three of 1.6 and the one of 1.7 after it
  EXPECT_TRUE(line.ends_with(",\"say \"\"hi\"\"\r\nbye\",,,,,,,,,,,,,,,,,,,,,,,\n")) << line;
}

// A 1.5 file (a sweep of the build before 1.6) is appended to in 1.5: its rows keep the tier and
// leave out driver_release, started and finding.
TEST_F(CsvWriterTest, FileOfSchema15IsAppendedToIn15) {
  std::string header = header_text();
  header = header.substr(0, header.rfind(",driver_release")) + "\n";
  CsvRow old = valid_row(1);
  old.set("schema", "1.5");
  std::string old_line;
  for (std::size_t i = 0; i < column_count_of_minor(5); ++i) {
    if (i) old_line += ',';
    const bool quoted = kColumns[i].name == "replay";
    if (quoted) old_line += '"';
    old_line += old.at(i);
    if (quoted) old_line += '"';
  }
  write_text(path, header + old_line + "\n");
  {
    CsvWriter writer(path);
    EXPECT_EQ(writer.minor(), 5);
    CsvRow row = valid_row(2);
    row.set("tier", "random");
    row.set("started", "2026-12-01T07:22:54.123Z");
    writer.write(row);
  }
  EXPECT_TRUE(read_text(path).starts_with(header));
  const auto rows = read_rows(path);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].get("schema"), "1.5");
  EXPECT_EQ(rows[1].tier(), CaseTier::random);
  EXPECT_EQ(rows[1].get("started"), "");
}

}  // namespace
}  // namespace gridfuzz::reports
