#include "gridfuzz/reports/schema.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gridfuzz/core/case.hpp"
#include "gridfuzz/reports/csv_reader.hpp"

namespace gridfuzz::reports {
namespace {

// The column list of issue 2, item 6, in order: the contract every consumer reads by.
const std::vector<std::string> kSpecifiedColumns = {
    "schema", "run_id", "case_id", "device", "cc", "driver", "commit", "kernel", "variant",
    "quant", "bits", "group_size", "dtype", "tokens", "top_k", "experts", "rows", "cols",
    "vocab", "launches", "grid_x", "grid_y", "grid_z", "block_x", "block_y", "block_z", "smem",
    "regs", "max_index", "index_type", "index_wrap", "predicted", "observed", "oracle",
    "max_abs_err", "mismatches", "verdict", "time_ms_median", "time_ms_min", "time_ms_max",
    "samples", "gbps", "seed", "replay",
    // schema 1.1
    "device_index",
    // schema 1.2
    "kernel_ms_median", "kernel_ms_min", "kernel_ms_max", "kernels_per_call",
    // schema 1.3
    "unwritten", "cpu_ok", "cpu_total",
    // schema 1.4
    "plan_ms", "alloc_ms", "fill_ms", "call_ms", "reference_ms", "compare_ms", "cpu_ms", "timing_ms", "case_ms",
    "worker_ms",
    // schema 1.5
    "tier",
    // schema 1.6
    "driver_release", "started", "finding",
    // schema 1.7
    "time_samples_ms"};

TEST(Schema, ColumnsAreTheSpecifiedListInOrder) {
  ASSERT_EQ(kColumnCount, kSpecifiedColumns.size());
  for (std::size_t i = 0; i < kColumnCount; ++i)
    EXPECT_EQ(kColumns[i].name, kSpecifiedColumns[i]) << "column " << i;
}

TEST(Schema, VersionStringMatchesMajorAndMinor) {
  EXPECT_EQ(kSchemaVersion, "1.7");
  const auto version = parse_schema_version(kSchemaVersion);
  ASSERT_TRUE(version.has_value());
  EXPECT_EQ(version->major, kSchemaMajor);
  EXPECT_EQ(version->minor, kSchemaMinor);
}

TEST(Schema, ColumnIndexLooksUpByName) {
  EXPECT_EQ(column_index("schema"), 0u);
  EXPECT_EQ(column_index("grid_z"), 22u);
  EXPECT_EQ(column_index("replay"), 43u);
  EXPECT_EQ(column_index("device_index"), 44u);
  EXPECT_EQ(column_index("kernels_per_call"), 48u);
  EXPECT_EQ(column_index("cpu_total"), 51u);
  EXPECT_EQ(column_index("worker_ms"), kColumnCount - 6);
  EXPECT_EQ(column_index("tier"), kColumnCount - 5);
  EXPECT_EQ(column_index("finding"), kColumnCount - 2);
  EXPECT_EQ(column_index("time_samples_ms"), 66u);
  EXPECT_EQ(column_index("time_samples_ms"), kColumnCount - 1);
  EXPECT_FALSE(column_index("grid_w").has_value());
  EXPECT_FALSE(column_index("").has_value());
  static_assert(column_index("verdict").has_value(), "usable at compile time");
}

TEST(Schema, RequireColumnIndexNamesTheUnknownColumn) {
  EXPECT_EQ(require_column_index("verdict"), *column_index("verdict"));
  try {
    require_column_index("verdikt");
    FAIL() << "expected UnknownColumnError";
  } catch (const UnknownColumnError& error) {
    EXPECT_EQ(error.column(), "verdikt");
    EXPECT_NE(std::string(error.what()).find("verdikt"), std::string::npos);
  }
}

TEST(Schema, OnlyAppendedColumnsHaveALaterMinor) {
  // A minor version may only append: once a column of minor m appears, every later one is >= m.
  int minor = 0;
  for (const Column& column : kColumns) {
    EXPECT_GE(column.since_minor, minor) << column.name;
    EXPECT_LE(column.since_minor, kSchemaMinor) << column.name;
    minor = column.since_minor;
  }
  EXPECT_EQ(kColumns[*column_index("device_index")].since_minor, 1);
  EXPECT_EQ(kColumns[*column_index("kernel_ms_median")].since_minor, 2);
  EXPECT_EQ(kColumns[*column_index("unwritten")].since_minor, 3);
  EXPECT_EQ(kColumns[*column_index("plan_ms")].since_minor, 4);
  EXPECT_EQ(kColumns[*column_index("tier")].since_minor, 5);
  EXPECT_EQ(kColumns[*column_index("driver_release")].since_minor, 6);
  EXPECT_EQ(kColumns[*column_index("finding")].since_minor, 6);
  EXPECT_EQ(kColumns[*column_index("time_samples_ms")].since_minor, 7);
}

// A file of minor m has the first column_count_of_minor(m) columns: 44 in 1.0, every one in ours.
TEST(Schema, ColumnsOfAMinorAreTheFirstOnes) {
  EXPECT_EQ(column_count_of_minor(0), 44u);
  EXPECT_EQ(column_count_of_minor(1), 45u);
  EXPECT_EQ(column_count_of_minor(4), *column_index("worker_ms") + 1);
  EXPECT_EQ(column_count_of_minor(kSchemaMinor), kColumnCount);
  for (int minor = 0; minor <= kSchemaMinor; ++minor)
    for (std::size_t c = 0; c < kColumnCount; ++c)
      EXPECT_EQ(c < column_count_of_minor(minor), kColumns[c].since_minor <= minor) << minor << " " << c;
}

TEST(Schema, ParsesVersions) {
  EXPECT_EQ(parse_schema_version("1.0"), (SchemaVersion{1, 0}));
  EXPECT_EQ(parse_schema_version("12.34"), (SchemaVersion{12, 34}));
  for (const char* bad : {"", "1", "1.", ".0", "1.0.0", "v1.0", "-1.0", "1.-0", " 1.0", "1.0 ",
                          "a.b", "1,0"})
    EXPECT_FALSE(parse_schema_version(bad).has_value()) << "'" << bad << "'";
}

TEST(Schema, SchemaMdDocumentsEveryColumn) {
  std::ifstream in(GRIDFUZZ_SCHEMA_MD);
  ASSERT_TRUE(in) << "cannot open " << GRIDFUZZ_SCHEMA_MD;
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  EXPECT_NE(doc.find("Schema version: `" + std::string(kSchemaVersion) + "`"), std::string::npos);
  for (const Column& column : kColumns)
    EXPECT_NE(doc.find("| `" + std::string(column.name) + "` |"), std::string::npos)
        << "SCHEMA.md has no table row for column " << column.name;
}

// The examples of SCHEMA.md are rows of real runs: they read back under the schema's checks, their
// replay strings parse, and their oracle summaries follow the grammar SCHEMA.md gives for them.
// The newest block shows the tiers. A block whose text names the evidence file it comes from
// holds lines of that file, byte for byte (its header too).
TEST(Schema, SchemaMdExampleRowsAreValidRows) {
  std::ifstream in(GRIDFUZZ_SCHEMA_MD);
  ASSERT_TRUE(in);
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  const std::size_t example = doc.find("## Example");
  ASSERT_NE(example, std::string::npos);
  const std::size_t section_end = doc.find("\n## ", example + 1);
  const std::regex oracle(R"(split:(exact|tol):\d+ unwritten:\d+ cpu:\d+/\d+|guard:\S.*|-)");
  std::size_t blocks = 0, from_evidence = 0;
  std::set<std::string> schemas, tiers;
  std::size_t text_from = example;
  for (std::size_t begin = doc.find("```csv\n", example); begin < section_end; begin = doc.find("```csv\n", begin + 1)) {
    const std::size_t end = doc.find("```", begin + 7);
    ASSERT_NE(end, std::string::npos);
    ++blocks;
    std::smatch named;
    const std::string before = doc.substr(text_from, begin - text_from);
    text_from = end + 3;
    if (std::regex_search(before, named, std::regex(R"(evidence/[A-Za-z0-9_./-]+\.csv)"))) {
      ++from_evidence;
      std::ifstream evidence(std::string(GRIDFUZZ_SOURCE_DIR) + "/" + named.str());
      ASSERT_TRUE(evidence) << named.str();
      std::set<std::string> lines;
      for (std::string line; std::getline(evidence, line);) lines.insert(line);
      std::istringstream block(doc.substr(begin + 7, end - begin - 7));
      for (std::string line; std::getline(block, line);)
        EXPECT_TRUE(lines.contains(line)) << "not a line of " << named.str() << ": " << line.substr(0, 120);
    }
    const auto file = parse_csv(doc.substr(begin + 7, end - begin - 7), "SCHEMA.md example");
    ASSERT_GE(file.rows.size(), 2u);
    for (const auto& row : file.rows) {
      EXPECT_NO_THROW(Case::parse_replay(row.get("replay"))) << row.get("replay");
      EXPECT_TRUE(std::regex_match(row.get("oracle"), oracle)) << row.get("oracle");
      schemas.insert(row.get("schema"));
      tiers.insert(row.get("tier"));
    }
  }
  EXPECT_EQ(blocks, 2u);
  EXPECT_EQ(from_evidence, 1u);
  EXPECT_TRUE(schemas.contains(std::string(kSchemaVersion)));
  EXPECT_EQ(tiers, (std::set<std::string>{"", "defaults", "default-sizes", "random"}));
}

}  // namespace
}  // namespace gridfuzz::reports
