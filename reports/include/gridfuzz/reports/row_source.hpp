#pragma once
// A run's rows as report and diff read them: each once, in order, and again by position for the
// few whose text is shown (a failure's replay string, a boundary's rule). RowVector is rows held
// in memory; RowFiles (row_files.hpp) reads them from the CSVs and holds only where each row is,
// so a report of a 1 GB CSV does not hold the CSV's rows.
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::reports {

class RowSource {
 public:
  virtual ~RowSource() = default;
  virtual std::size_t size() const = 0;
  // Every row, in order: each(position, row), the row valid during the call.
  virtual void visit(const std::function<void(std::size_t, const CsvRow&)>& each) const = 0;
  // The row at `position` (< size()).
  virtual CsvRow at(std::size_t position) const = 0;
  // The position of the row of this case (device and case_id), if there is one.
  virtual std::optional<std::size_t> find(std::string_view device, std::string_view case_id) const = 0;
};

// Rows in memory, which must outlive it. A case twice: find gives the first.
class RowVector final : public RowSource {
 public:
  explicit RowVector(const std::vector<CsvRow>& rows) : rows_(rows) {}
  std::size_t size() const override { return rows_.size(); }
  void visit(const std::function<void(std::size_t, const CsvRow&)>& each) const override {
    for (std::size_t i = 0; i < rows_.size(); ++i) each(i, rows_[i]);
  }
  CsvRow at(std::size_t position) const override { return rows_.at(position); }
  std::optional<std::size_t> find(std::string_view device, std::string_view case_id) const override {
    if (index_.empty())
      for (std::size_t i = 0; i < rows_.size(); ++i)
        index_.try_emplace({rows_[i].get("device"), rows_[i].get("case_id")}, i);
    const auto it = index_.find({std::string(device), std::string(case_id)});
    if (it == index_.end()) return std::nullopt;
    return it->second;
  }

 private:
  const std::vector<CsvRow>& rows_;
  mutable std::map<std::pair<std::string, std::string>, std::size_t> index_;  // made at the first find
};

}  // namespace gridfuzz::reports
