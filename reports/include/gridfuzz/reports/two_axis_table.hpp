#pragma once
// Boundaries in two axes: for the pairs that matter (tokens x vocab, tokens x top_k,
// tokens x experts), the first failing value of tokens for each value of the other axis that the
// rows hold a line for, per kernel x device, one column per variant (legacy first fail | fixed
// passes up to ...). Read from the lines along tokens (cases that differ only in tokens).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gridfuzz/reports/csv_row.hpp"
#include "gridfuzz/reports/row_facts.hpp"
#include "gridfuzz/reports/row_source.hpp"

namespace gridfuzz::reports {

// One variant on one line: the device's view when a case of the line ran, else the model's.
struct TwoAxisCell {
  bool observed = false;                    // from the device (false: static rows, the model)
  std::optional<std::int64_t> first_fail;   // nullopt: nothing failed up to max_tested
  std::optional<std::int64_t> last_pass;    // the largest passing value below first_fail
  std::int64_t min_tested = 0, max_tested = 0;
  bool fails_from_start = false;            // the smallest value tested fails already: an axis
                                            // held fixed (not `axis`) is the cause
  bool model_differs = false;               // observed, and the model's first fail is another
  std::optional<std::int64_t> model_first_fail;  // the model's first fail (nullopt: none)
  std::string rule;                         // at first_fail: "refuse:grid.z", "wrap:out_offset"
  friend bool operator==(const TwoAxisCell&, const TwoAxisCell&) = default;
};

struct TwoAxisEntry {
  std::int64_t key_value = 0;  // the value of key_axis (a vocab, a top_k)
  std::string others;          // the fixed axes that differ between the table's entries, or ""
  std::map<std::string, TwoAxisCell> cells;  // variant -> cell (absent: no line for it)
};

struct TwoAxisTable {
  std::string kernel, device;
  std::string axis;      // the axis whose first failing value is given: tokens
  std::string key_axis;  // vocab, top_k or experts
  std::vector<std::string> variants;         // in the order of the rows
  std::vector<TwoAxisEntry> entries;         // by key value, then others
  std::vector<std::int64_t> values_without_line;  // key values of the rows with no line along axis
};

// The pairs the report shows: {tokens, vocab}, {tokens, top_k}, {tokens, experts}.
const std::vector<std::pair<std::string, std::string>>& two_axis_pairs();

// One table per kernel x device x pair whose rows have at least one line of two or more points
// along `axis` (single points on the same line of another variant join it). `rows` are the
// facts' rows (the rule at a first fail is read from its row).
std::vector<TwoAxisTable> two_axis_tables(const RowFacts& facts, const RowSource& rows);
std::vector<TwoAxisTable> two_axis_tables(const std::vector<CsvRow>& rows);

// The cell in words: "8192 refuse:grid.z", "no failure up to 16746", "all fail from 1 wrap:l",
// "(model)" for static rows, "(model: 8193)" where the model disagrees.
std::string cell_text(const TwoAxisCell& cell);

}  // namespace gridfuzz::reports
