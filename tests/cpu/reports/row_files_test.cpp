// RowFiles (issue 34): CSVs merged without holding their rows, each row read again by position.
// What it gives must be what the rows held in memory give (read_rows, merge_rows).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "gridfuzz/reports/csv_reader.hpp"
#include "gridfuzz/reports/csv_writer.hpp"
#include "gridfuzz/reports/row_files.hpp"
#include "gridfuzz/reports/row_set.hpp"
#include "gridfuzz/reports/string_pool.hpp"
#include "test_support.hpp"

namespace gridfuzz::reports {
namespace {

using testing::ScratchDir;
using testing::valid_row;

// Row `n`: every third case id is gridfuzz's 16 hex digits, the others free text.
CsvRow numbered_row(int n) {
  CsvRow row = valid_row(n);
  if (n % 3 == 0) {
    char id[17];
    std::snprintf(id, sizeof id, "%016x", n + 0xabc);
    row.set("case_id", id);
  }
  row.set("oracle", "row " + std::to_string(n) + std::string(static_cast<std::size_t>(n % 7) * 40, 'x'));
  return row;
}

void write_rows(const std::filesystem::path& path, const std::vector<CsvRow>& rows) {
  CsvWriter writer(path);
  for (const CsvRow& row : rows) writer.write(row);
}

TEST(RowFiles, MergesAsTheRowsInMemoryAndReadsEachAgainInAnyOrder) {
  ScratchDir dir;
  // Enough rows that the files are many times the reader's 64 KiB buffer.
  std::vector<CsvRow> first, second;
  for (int n = 0; n < 3000; ++n) first.push_back(numbered_row(n));
  for (int n = 2990; n < 3010; ++n) second.push_back(numbered_row(n));  // 10 cases again, 10 new
  second[1].set("verdict", "unexpected-pass");                         // case 2991: another verdict
  write_rows(dir.file("a.csv"), first);
  write_rows(dir.file("b.csv"), second);

  const RowFiles files = RowFiles::load({dir.file("a.csv"), dir.file("b.csv")});
  const std::vector<CsvRow> expected = merge_rows({read_rows(dir.file("a.csv")), read_rows(dir.file("b.csv"))});
  ASSERT_EQ(files.size(), expected.size());
  ASSERT_EQ(files.size(), 3010u);
  std::size_t visited = 0;
  files.visit([&](std::size_t position, const CsvRow& row) {
    EXPECT_EQ(row, expected[position]) << position;
    ++visited;
  });
  EXPECT_EQ(visited, expected.size());
  // Backwards and by strides: each row read again where it is.
  for (std::size_t p = files.size(); p-- > 0;) ASSERT_EQ(files.at(p), expected[p]) << p;
  for (std::size_t p = 0; p < files.size(); p += 97) ASSERT_EQ(files.at((p * 31) % files.size()), expected[(p * 31) % files.size()]);

  EXPECT_EQ(files.find("NVIDIA H200", expected[5].get("case_id")), 5u);
  EXPECT_EQ(files.find("NVIDIA H200", expected[2991].get("case_id")), 2991u);
  EXPECT_EQ(files.at(2991).get("verdict"), "unexpected-pass") << "the last file's row, in the place of the first";
  EXPECT_EQ(files.find("NVIDIA H200", expected[3009].get("case_id")), 3009u);
  EXPECT_FALSE(files.find("NVIDIA A100", expected[5].get("case_id")).has_value());
  EXPECT_FALSE(files.find("NVIDIA H200", "no-such-case").has_value());
  EXPECT_FALSE(files.find("NVIDIA H200", "00000000deadbeef").has_value());
  ASSERT_EQ(files.notes().size(), 1u);
  EXPECT_EQ(files.notes()[0],
            "10 case(s) appear more than once (same device and case_id); the last file's row is kept (1 of them with "
            "a different verdict)");
  EXPECT_EQ(files.sources()[1], dir.file("b.csv").string() + " (20 rows)");
  EXPECT_EQ(files.devices(), std::vector<std::string>{"NVIDIA H200"});
  // load_row_set reads through it: the same rows and notes.
  const RowSet set = load_row_set({dir.file("a.csv"), dir.file("b.csv")});
  EXPECT_EQ(set.rows, expected);
  EXPECT_EQ(set.notes, files.notes());
}

// The files stay open and a writer only appends; a row that is gone when read again (a file cut
// meanwhile) is said, with its line, never read as another row.
TEST(RowFiles, ARowGoneWhenReadAgainIsACsvErrorWithItsLine) {
  ScratchDir dir;
  std::vector<CsvRow> rows;
  for (int n = 0; n < 1000; ++n) rows.push_back(numbered_row(n));  // past the reader's buffer
  write_rows(dir.file("a.csv"), rows);
  const RowFiles files = RowFiles::load({dir.file("a.csv")});
  ASSERT_EQ(files.size(), 1000u);
  std::filesystem::resize_file(dir.file("a.csv"), testing::header_text().size());
  try {
    (void)files.at(0);
    FAIL() << "a row read from a cut file";
  } catch (const CsvError& e) {
    EXPECT_NE(std::string(e.what()).find("a.csv:2: the row read before is gone"), std::string::npos) << e.what();
  }
}

TEST(RowFiles, AnUnfinishedLastRowIsNotedAndNeverRead) {
  ScratchDir dir;
  write_rows(dir.file("a.csv"), {numbered_row(1)});
  testing::append_text(dir.file("a.csv"), "1.7,run,cut-here");
  const RowFiles files = RowFiles::load({dir.file("a.csv")});
  EXPECT_EQ(files.size(), 1u);
  ASSERT_EQ(files.notes().size(), 1u);
  EXPECT_NE(files.notes()[0].find("an unfinished last row (line 3) was dropped"), std::string::npos);
  EXPECT_EQ(files.at(0), read_rows(dir.file("a.csv"))[0]);
}

TEST(StringPool, KeepsEachTextOnceUnderOneIdAsItGrows) {
  StringPool pool;
  EXPECT_FALSE(pool.find("a").has_value());
  std::vector<std::uint32_t> ids;
  for (int i = 0; i < 5000; ++i) ids.push_back(pool.intern("text " + std::to_string(i)));
  EXPECT_EQ(pool.intern(""), 5000u);
  EXPECT_EQ(pool.size(), 5001u);
  for (int i = 0; i < 5000; ++i) {
    ASSERT_EQ(ids[static_cast<std::size_t>(i)], static_cast<std::uint32_t>(i));
    ASSERT_EQ(pool.intern("text " + std::to_string(i)), ids[static_cast<std::size_t>(i)]);
    ASSERT_EQ(pool.text(ids[static_cast<std::size_t>(i)]), "text " + std::to_string(i));
  }
  EXPECT_EQ(pool.find("text 4999"), 4999u);
  EXPECT_EQ(pool.find(""), 5000u);
  EXPECT_FALSE(pool.find("text 5000").has_value());
  EXPECT_EQ(pool.size(), 5001u) << "find adds nothing";
}

}  // namespace
}  // namespace gridfuzz::reports
