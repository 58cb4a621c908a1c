#pragma once
// The summary sections of a report, each summed as the rows are visited (report_data.hpp): counts
// by verdict per kernel x variant x device, the failing cases, and the slowest timed cases. The
// failing and slowest cases are kept as positions; their text is read again when shown.
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gridfuzz/core/vocabulary.hpp"
#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports {

// kernel, variant, device
using GroupKey = std::tuple<std::string, std::string, std::string>;

GroupKey group_of(const CsvRow& row);

// Group -> verdict -> rows. fail:<kind> verdicts are counted under their full text.
std::map<GroupKey, std::map<std::string, std::size_t>> verdict_counts(const std::vector<CsvRow>& rows);

// Per group (a RowFacts group id) the cases and their verdicts by kind (a row whose verdict is no
// verdict counts as a case only), and the failures by their whole verdict text (fail:fault).
class VerdictCounts {
 public:
  struct Tally {
    std::size_t cases = 0;
    std::map<Verdict::Kind, std::size_t> by_kind;
  };
  void add(std::uint32_t group, const RowOutcome& outcome);
  const std::vector<Tally>& by_group() const { return tallies_; }
  const std::map<std::string, std::size_t>& failure_kinds() const { return kinds_; }

 private:
  std::vector<Tally> tallies_;
  std::map<std::string, std::size_t> kinds_;
};

// The rows that fail the run (fail:*, model-mismatch, unexpected-pass): how many, how many are
// races (fail:nondeterministic), and the first `listed` of them.
class FailureList {
 public:
  explicit FailureList(std::size_t listed) : listed_(listed) {}
  void add(std::size_t position, const RowOutcome& outcome);
  std::size_t count() const { return count_; }
  std::size_t races() const { return races_; }
  const std::vector<std::size_t>& first() const { return first_; }

 private:
  std::size_t listed_;
  std::size_t count_ = 0, races_ = 0;
  std::vector<std::size_t> first_;
};

// The `count` timed rows with the largest time_ms_median, slowest first; ties in row order.
class SlowestCases {
 public:
  explicit SlowestCases(std::size_t count) : count_(count) {}
  void add(std::size_t position, const CsvRow& row);
  std::vector<std::size_t> positions() const;

 private:
  std::size_t count_;
  std::vector<std::pair<double, std::size_t>> kept_;  // median, position; slowest first
};

// The same of rows in memory.
std::vector<const CsvRow*> slowest_cases(const std::vector<CsvRow>& rows, std::size_t count);

}  // namespace gridfuzz::reports
