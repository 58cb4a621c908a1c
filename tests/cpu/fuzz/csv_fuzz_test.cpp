// The CSV reader on mutated files (gridfuzz report, diff and replay CSV:ROW read CSVs from
// anywhere): real rows (the committed H200 baseline, schema 1.0), rows of this schema written by
// CsvWriter, the same with CRLF and a byte-order mark, and a file of a future minor version with
// a column this reader does not know; then byte flips, control bytes, invalid UTF-8, huge
// numbers, truncation, duplicated and deleted fields and lines.
//
// parse_csv returns rows or throws CsvError (its one documented exception), and what it accepts
// is safe to use: no control character in any field, rows that write and read back equal, a
// complete prefix that a resuming writer can append to, and rows every report can render.
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "gridfuzz/reports/baseline_diff.hpp"
#include "gridfuzz/reports/boundary_table.hpp"
#include "gridfuzz/reports/case_outcome.hpp"
#include "gridfuzz/reports/csv_reader.hpp"
#include "gridfuzz/reports/csv_writer.hpp"
#include "gridfuzz/reports/junit.hpp"
#include "gridfuzz/reports/report_markdown.hpp"
#include "gridfuzz/reports/run_summary.hpp"

namespace gridfuzz::fuzz {
namespace {

using reports::CsvError;
using reports::CsvReadOptions;
using reports::CsvReadResult;
using reports::CsvRow;

constexpr std::string_view kCsvSeparators = ",\n\r\"";

// A folder of this process, removed at exit.
const std::filesystem::path& scratch_dir() {
  struct Dir {
    std::filesystem::path path;
    Dir() {
      path = std::filesystem::temp_directory_path() / ("gridfuzz-fuzz-" + std::to_string(::getpid()));
      std::filesystem::create_directories(path);
    }
    ~Dir() {
      std::error_code ignored;
      std::filesystem::remove_all(path, ignored);
    }
  };
  static const Dir dir;
  return dir.path;
}

std::filesystem::path fresh_file(const std::string& stem) {
  static std::atomic<unsigned> counter{0};
  const auto path = scratch_dir() / (stem + "-" + std::to_string(counter++) + ".csv");
  std::filesystem::remove(path);
  return path;
}

// The baseline's header and first five rows: real values of every column (schema 1.0, without
// device_index).
std::string baseline_head() {
  const std::string text = read_file(GRIDFUZZ_SOURCE_DIR "/baselines/nvidia-h200.csv");
  std::size_t end = 0;
  for (int line = 0; line < 6 && end != std::string::npos; ++line) end = text.find('\n', end + 1);
  return text.substr(0, end == std::string::npos ? text.size() : end + 1);
}

CsvRow valid_row(int i) {
  CsvRow row;
  row.set("run_id", "fuzz-" + std::to_string(i));
  row.set("case_id", "00000000000000" + std::to_string(10 + i));
  row.set("device", "NVIDIA H200");
  row.set("cc", "9.0");
  row.set("driver", "13.0");
  row.set("commit", "5c86d3d29dfb+dirty");
  row.set("kernel", "gguf.moe_vec");
  row.set("variant", i % 2 ? "legacy" : "fixed");
  row.set("quant", "q4_0");
  row.set_int("tokens", 8190 + i);
  row.set_int("top_k", 8);
  row.set_int("rows", 65536);
  row.set_int("grid_x", 1);
  row.set_int("grid_y", 65535 + i);
  row.set_int("grid_z", 1);
  row.set_int("block_x", 32);
  row.set_u128("max_index", (u128{1} << 64) + static_cast<unsigned>(i));
  row.set("index_type", "int32");
  row.set("index_wrap", i % 2 ? "wrap:row * cols" : "safe");
  row.set("predicted", i % 2 ? "refuse:grid.y" : "accept");
  row.set("observed", i % 2 ? "refuse:CUDA_ERROR_INVALID_VALUE" : "accept");
  row.set("oracle", i % 2 ? "-" : "split:exact:0 unwritten:0 cpu:256/256");
  row.set_double("max_abs_err", 0.125);
  row.set_int("mismatches", 0);
  row.set("verdict", i % 2 ? "expected-fail" : "pass");
  row.set_double("time_ms_median", 0.21273600310087204);
  row.set_double("time_ms_min", 0.2102);
  row.set_double("time_ms_max", 0.2154);
  row.set_int("samples", 10);
  row.set_double("gbps", 1066.2093707403596);
  row.set_uint("seed", 18446744073709551615ull - static_cast<unsigned>(i));
  row.set("replay", "gguf.moe_vec/" + row.get("variant") + "/1/quant=q4_0,rows=65536,tokens=" +
                        row.get("tokens") + ",top_k=8");
  row.set_int("device_index", i);
  return row;
}

// Three rows of this schema as CsvWriter writes them (quoted replay strings included).
std::string written_file() {
  const auto path = fresh_file("seed");
  {
    reports::CsvWriter writer(path);
    for (int i = 0; i < 3; ++i) writer.write(valid_row(i));
  }
  return read_file(path.string());
}

std::string with_crlf_and_bom(const std::string& text) {
  std::string out = "\xEF\xBB\xBF";
  for (const char c : text) out += c == '\n' ? std::string("\r\n") : std::string(1, c);
  return out;
}

// A file of a later minor version: an extra column, rows of schema 1.9 (whose values this
// reader does not check), one with a value no 1.1 check would pass.
std::string future_minor_file(const std::string& written) {
  std::istringstream lines(written);
  std::string line, out;
  bool header = true;
  while (std::getline(lines, line)) {
    if (header) {
      out += line + ",future_column\n";
      header = false;
      continue;
    }
    out += "1.9" + line.substr(line.find(',')) + ",\"a, b\"\n";
  }
  std::vector<std::string> fields(reports::kColumnCount, "");
  fields[0] = "1.9";
  fields[*reports::column_index("predicted")] = "new-word";
  fields.push_back("x");
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ',';
    out += fields[i];
  }
  return out + "\n";
}

const std::vector<std::string>& csv_seeds() {
  static const std::vector<std::string> seeds = [] {
    const std::string written = written_file();
    return std::vector<std::string>{baseline_head(), written, with_crlf_and_bom(written),
                                    future_minor_file(written)};
  }();
  return seeds;
}

struct Parsed {
  std::string text;
  CsvReadOptions options;
  Outcome<CsvReadResult> outcome;
};

// With the default options (what `report`, `diff` and `replay CSV:ROW` use), or check_values
// chosen at random when `any_options`.
Parsed parse_mutated_csv(bool any_options = true) {
  Parsed p;
  p.text = mutated(csv_seeds(), kCsvSeparators);
  p.options.check_values = any_options ? *rc::gen::arbitrary<bool>() : true;
  RC_LOG() << "check_values=" << p.options.check_values << "\n";
  p.outcome = expect_value_or<CsvError>(
      [&] { return reports::parse_csv(p.text, "fuzz.csv", p.options); });
  if (!p.outcome.value) RC_LOG() << "rejected: " << cpp_literal(p.outcome.rejected) << "\n";
  return p;
}

// Valid UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF).
bool is_valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    std::size_t len = 0;
    std::uint32_t cp = 0;
    if (b < 0x80) { ++i; continue; }
    if (b >= 0xc2 && b <= 0xdf) { len = 2; cp = b & 0x1f; }
    else if (b >= 0xe0 && b <= 0xef) { len = 3; cp = b & 0x0f; }
    else if (b >= 0xf0 && b <= 0xf4) { len = 4; cp = b & 0x07; }
    else return false;
    if (i + len > text.size()) return false;
    for (std::size_t k = 1; k < len; ++k) {
      const auto c = static_cast<unsigned char>(text[i + k]);
      if ((c & 0xc0) != 0x80) return false;
      cp = (cp << 6) | (c & 0x3f);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
      return false;
    i += len;
  }
  return true;
}

// RFC 4180 as SCHEMA.md specifies it, written here independently of the library: every schema
// column in order, a field quoted when it holds ',', '"', CR or LF.
std::string serialise(const std::vector<CsvRow>& rows) {
  const auto field = [](std::string_view value) {
    if (value.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(value);
    std::string quoted = "\"";
    for (const char c : value) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
  };
  std::string text;
  // Appended piecewise: `"," + std::string(...)` trips GCC 12's -Wrestrict false positive.
  for (std::size_t c = 0; c < reports::kColumnCount; ++c) {
    if (c) text += ',';
    text += reports::kColumns[c].name;
  }
  text += '\n';
  for (const CsvRow& row : rows) {
    for (std::size_t c = 0; c < reports::kColumnCount; ++c) {
      if (c) text += ',';
      text += field(row.at(c));
    }
    text += '\n';
  }
  return text;
}

bool newer_minor(const CsvRow& row) {
  const auto version = reports::parse_schema_version(row.get("schema"));
  return version && version->minor > reports::kSchemaMinor;
}

}  // namespace

// The seeds themselves are valid: the properties below start from files the reader accepts.
TEST(FuzzCsv, SeedsAreValidFiles) {
  for (const auto& seed : csv_seeds()) {
    const auto result = reports::parse_csv(seed, "seed.csv");
    EXPECT_GE(result.rows.size(), 3u) << cpp_literal(seed);
  }
}

FUZZ_PROP(FuzzCsv, ReturnsRowsOrThrowsCsvError, 1500) {
  const Parsed p = parse_mutated_csv();
  if (!p.outcome.value) return;
  const CsvReadResult& r = *p.outcome.value;
  RC_ASSERT(r.rows.size() == r.row_lines.size());
  RC_ASSERT(r.complete_bytes <= p.text.size());
}

// SCHEMA.md, "File format": every field and column name is printable UTF-8 (no C0, DEL or C1
// control character, no invalid byte), whatever the row's minor version. Only the text layer
// (check_values = false) carries arbitrary bytes, so these two read with the default options.
FUZZ_PROP(FuzzCsv, AcceptedFieldsHoldNoControlCharacter, 1000) {
  const Parsed p = parse_mutated_csv(/*any_options=*/false);
  if (!p.outcome.value) return;
  for (const CsvRow& row : p.outcome.value->rows)
    for (std::size_t c = 0; c < reports::kColumnCount; ++c)
      if (has_control_character(row.at(c)))
        RC_FAIL("accepted column '" + std::string(reports::kColumns[c].name) +
                "' with a control character: " + cpp_literal(row.at(c)));
  for (const auto& name : p.outcome.value->ignored_columns)
    if (has_control_character(name)) RC_FAIL("accepted the column name " + cpp_literal(name));
}

FUZZ_PROP(FuzzCsv, AcceptedFieldsAreValidUtf8, 1000) {
  const Parsed p = parse_mutated_csv(/*any_options=*/false);
  if (!p.outcome.value) return;
  for (const CsvRow& row : p.outcome.value->rows)
    for (std::size_t c = 0; c < reports::kColumnCount; ++c)
      if (!is_valid_utf8(row.at(c)))
        RC_FAIL("accepted column '" + std::string(reports::kColumns[c].name) +
                "' with invalid UTF-8: " + cpp_literal(row.at(c)));
  for (const auto& name : p.outcome.value->ignored_columns)
    if (!is_valid_utf8(name)) RC_FAIL("accepted the column name " + cpp_literal(name));
}

// What the reader accepts re-serialises (RFC 4180, every column) and reads back equal, with the
// same checks.
FUZZ_PROP(FuzzCsv, AcceptedRowsReserialiseAndReadBackEqual, 1000) {
  const Parsed p = parse_mutated_csv();
  if (!p.outcome.value) return;
  const std::string text = serialise(p.outcome.value->rows);
  RC_LOG() << "re-serialised: " << cpp_literal(text) << "\n";
  const auto again = expect_value_or<CsvError>([&] { return reports::parse_csv(text, "again.csv", p.options); });
  if (!again.value) RC_FAIL("the accepted rows, re-serialised, do not read back: " + again.rejected);
  RC_ASSERT(again.value->rows == p.outcome.value->rows);
  RC_ASSERT(!again.value->dropped_partial_line);
}

// The same through CsvWriter (without value checks, as rows of a newer minor or unchecked rows
// may hold values this version does not know), for the rows it may write: rows of a newer minor
// are refused by design (their columns are not all in this schema's header).
FUZZ_PROP(FuzzCsv, AcceptedRowsGoThroughCsvWriterAndReadBackEqual, 400) {
  const Parsed p = parse_mutated_csv();
  if (!p.outcome.value) return;
  std::vector<CsvRow> rows;
  for (const CsvRow& row : p.outcome.value->rows)
    if (!newer_minor(row)) rows.push_back(row);
  const auto path = fresh_file("round-trip");
  {
    reports::CsvWriter writer(path, {.check_values = false});
    for (const CsvRow& row : rows) writer.write(row);
  }
  const std::string written = read_file(path.string());
  RC_LOG() << "written: " << cpp_literal(written) << "\n";
  const auto again = expect_value_or<CsvError>([&] { return reports::read_csv(path, p.options); });
  std::filesystem::remove(path);
  if (!again.value) RC_FAIL("the written rows do not read back: " + again.rejected);
  RC_ASSERT(again.value->rows == rows);
  RC_ASSERT(!again.value->dropped_partial_line);
}

// complete_bytes is where a resuming writer cuts the file and appends: that prefix holds every
// accepted row and no partial one.
FUZZ_PROP(FuzzCsv, TheCompletePrefixReadsTheSameRows, 600) {
  const Parsed p = parse_mutated_csv();
  if (!p.outcome.value) return;
  const std::string prefix = p.text.substr(0, p.outcome.value->complete_bytes);
  const auto again =
      expect_value_or<CsvError>([&] { return reports::parse_csv(prefix, "prefix.csv", p.options); });
  if (!again.value) RC_FAIL("the complete prefix is rejected: " + again.rejected);
  RC_ASSERT(again.value->rows == p.outcome.value->rows);
  RC_ASSERT(!again.value->dropped_partial_line);
  RC_ASSERT(again.value->complete_bytes == prefix.size());
}

// `gridfuzz report` and `diff` read with the default checks and hand the rows to these: none of
// them documents an exception, so a row the reader accepts must never make them throw.
FUZZ_PROP(FuzzCsv, AcceptedRowsGoThroughEveryReport, 500) {
  const Parsed p = parse_mutated_csv(/*any_options=*/false);
  if (!p.outcome.value) return;
  const std::vector<CsvRow>& rows = p.outcome.value->rows;
  std::string failed;
  try {
    reports::ReportInput input;
    input.rows = rows;
    input.sources = {"fuzz.csv (" + std::to_string(rows.size()) + " rows)"};
    RC_LOG() << "markdown: " << reports::render_markdown(input).size() << " bytes\n";
    RC_LOG() << "junit: " << reports::render_junit(rows).size() << " bytes\n";
    static const auto baseline = reports::parse_csv(csv_seeds()[0], "baseline.csv").rows;
    RC_LOG() << "diff: " << reports::render_diff(reports::diff_runs(baseline, rows)).size() << " bytes\n";
    RC_LOG() << "diff back: " << reports::render_diff(reports::diff_runs(rows, baseline)).size() << " bytes\n";
    RC_LOG() << "diff self: " << reports::render_diff(reports::diff_runs(rows, rows)).size() << " bytes\n";
    RC_LOG() << "boundaries: " << reports::boundary_table(rows).size() << "\n";
    RC_LOG() << "groups: " << reports::verdict_counts(rows).size() << "\n";
    for (const CsvRow& row : rows) (void)reports::device_slug(row.get("device"));
  } catch (const std::exception& e) {
    failed = exception_type_name(e) + ": " + e.what();
  }
  if (!failed.empty()) RC_FAIL("a report threw on rows the reader accepted: " + failed);
}

// Found by AcceptedRowsGoThroughEveryReport (seed 16139100035384071085, 200x): check_row accepted
// samples = 18446744073709551615 (an integer column takes signed or unsigned 64-bit values) and
// diff_runs then threw from timing_of. `samples` is a count now: the writer refuses such a row and
// the reader such a file, with the line.
TEST(FuzzCsv, SamplesPastInt64MaxOrNegativeAreRefused) {
  for (const char* bad : {"18446744073709551615", "-1"}) {
    CsvRow row = valid_row(0);
    row.set("samples", bad);
    const auto path = fresh_file("samples");
    EXPECT_THROW(reports::CsvWriter(path).write(row), reports::CsvError) << bad;
    std::filesystem::remove(path);
    { reports::CsvWriter(path, reports::CsvWriterOptions{.check_values = false}).write(row); }  // the text layer only
    try {
      reports::read_csv(path);
      ADD_FAILURE() << "the reader took samples " << bad;
    } catch (const reports::CsvError& e) {
      EXPECT_NE(std::string(e.what()).find(":2: samples"), std::string::npos) << e.what();
    }
    std::filesystem::remove(path);
  }
}

}  // namespace gridfuzz::fuzz

