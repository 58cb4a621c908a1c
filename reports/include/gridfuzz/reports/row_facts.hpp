#pragma once
// What the boundary lines, the two-axis tables and the pictures read of each row, in a few bytes
// a row instead of the row (issue 34: a report of a 1 GB CSV must not hold its rows): its kernel x
// variant x device, its axes (names and values kept once each, in a StringPool), whether the
// model and the device say it fails, whether it is a known race's, and how a picture marks it.
// Rows are added in their order, so a row's facts are found by its position; the few rows whose
// text a report shows (a rule, a replay string) are read again from the RowSource.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gridfuzz/reports/csv_row.hpp"
#include "gridfuzz/reports/known_races.hpp"
#include "gridfuzz/reports/point_outcome.hpp"
#include "gridfuzz/reports/row_source.hpp"
#include "gridfuzz/reports/string_pool.hpp"

namespace gridfuzz::reports {

class RowFacts {
 public:
  // kernel, variant and device as text ids.
  struct Group {
    std::uint32_t kernel = 0, variant = 0, device = 0;
  };
  struct Row {
    std::uint32_t group = 0;      // groups()[group]
    std::uint32_t signature = 0;  // signature(): the names of its axes, by name
    std::uint32_t values = 0;     // its axes' value ids start at values_[values], one per name
    std::uint32_t race = 0;       // 0, or 1 + the text id of its race (KnownRaces::race_of)
    bool predicted_fails = false;  // the model says it fails (predicted_fails)
    std::uint8_t observed = 0;     // the device: 0 did not run, 1 passes, 2 fails (observed_fails)
    std::uint8_t shown = 0;        // point_outcome: its Outcome
    bool predicted_only = false;   // point_outcome: a static row
    std::optional<bool> observed_fails() const {
      if (observed == 0) return std::nullopt;
      return observed == 2;
    }
    PointOutcome outcome() const { return {static_cast<Outcome>(shown), predicted_only}; }
  };

  // A timed row (timing_of): what the timing picture draws.
  struct Timing {
    std::uint32_t position = 0;
    double median_ms = 0, min_ms = 0, max_ms = 0;
  };

  explicit RowFacts(KnownRaces races = {}) : races_(std::move(races)) {}
  // Every row of `rows`, in order.
  static RowFacts of(const RowSource& rows, KnownRaces races = {});

  // The next row's facts (its position is the number added before it).
  void add(const CsvRow& row);

  std::size_t size() const noexcept { return rows_.size(); }
  const Row& row(std::size_t position) const { return rows_[position]; }
  const Group& group(std::uint32_t id) const { return groups_[id]; }
  std::size_t groups() const noexcept { return groups_.size(); }
  // The axis name ids of a signature, ordered by name.
  const std::vector<std::uint32_t>& signature(std::uint32_t id) const { return signatures_[id]; }
  // The value id of a row's axis `index` (in its signature's order).
  std::uint32_t value(const Row& row, std::size_t index) const { return values_[row.values + index]; }
  std::string_view text(std::uint32_t id) const { return texts_.text(id); }
  std::optional<std::uint32_t> find_text(std::string_view text) const { return texts_.find(text); }
  // A text as an integer (parse_int), nullopt when it is none.
  std::optional<std::int64_t> integer(std::uint32_t id) const;
  // A row's axes as text: name -> value (case_axes).
  std::map<std::string, std::string> axes(const Row& row) const;
  // The timed rows, in order.
  const std::vector<Timing>& timings() const noexcept { return timings_; }
  // Per kernel and device, its variants in the order the rows first name them.
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> variants_in_order() const;

 private:
  std::uint32_t intern(std::string_view text);

  KnownRaces races_;
  StringPool texts_;
  std::vector<std::int64_t> integers_;  // per text id: its integer value
  std::vector<bool> is_integer_;        // per text id: whether it is one
  std::vector<Group> groups_;
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::uint32_t> group_ids_;
  std::vector<std::vector<std::uint32_t>> signatures_;
  std::map<std::vector<std::uint32_t>, std::uint32_t> signature_ids_;
  std::vector<std::uint32_t> values_;
  std::vector<Row> rows_;
  std::vector<Timing> timings_;
};

}  // namespace gridfuzz::reports
