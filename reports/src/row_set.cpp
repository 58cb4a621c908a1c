#include "gridfuzz/reports/row_set.hpp"

#include <functional>
#include <string_view>
#include <unordered_set>

#include "gridfuzz/reports/row_files.hpp"
#include "gridfuzz/reports/schema.hpp"

namespace gridfuzz::reports {

std::string row_key(const CsvRow& row) {
  // The unit separator cannot occur in a checked CSV value, so the key is unambiguous.
  return row.get("device") + '\x1f' + row.get("case_id");
}

namespace {

// The merge of merge_rows and load_row_set, a row at a time: rows in first-seen order, a later
// row of a case replacing the earlier one in its place. Keeps the rows and, per row, its position
// in a set hashed by the row's key (not a copy of the key).
class RowMerger {
 public:
  RowMerger() = default;
  RowMerger(const RowMerger&) = delete;  // the set refers to merged_
  RowMerger& operator=(const RowMerger&) = delete;

  void add(CsvRow&& row) {
    merged_.push_back(std::move(row));
    const auto [it, inserted] = positions_.insert(merged_.size() - 1);
    if (inserted) return;
    CsvRow& kept = merged_[*it];
    ++replaced_;
    if (kept.outcome().verdict != merged_.back().outcome().verdict) ++replaced_with_other_verdict_;
    kept = std::move(merged_.back());
    merged_.pop_back();
  }

  std::vector<CsvRow> take(std::vector<std::string>* notes) {
    if (notes && replaced_ > 0)
      notes->push_back(std::to_string(replaced_) +
                       " case(s) appear more than once (same device and case_id); the last file's row is kept" +
                       (replaced_with_other_verdict_
                            ? " (" + std::to_string(replaced_with_other_verdict_) + " of them with a different verdict)"
                            : std::string()));
    positions_.clear();
    return std::move(merged_);
  }

 private:
  static constexpr std::size_t kDevice = *column_index("device"), kCaseId = *column_index("case_id");

  struct KeyHash {
    const std::vector<CsvRow>* rows;
    std::size_t operator()(std::size_t i) const {
      const CsvRow& row = (*rows)[i];
      const std::size_t device = std::hash<std::string_view>{}(row.view_at(kDevice));
      return device ^ (std::hash<std::string_view>{}(row.view_at(kCaseId)) + 0x9e3779b97f4a7c15ULL + (device << 6) +
                       (device >> 2));
    }
  };
  struct SameKey {
    const std::vector<CsvRow>* rows;
    bool operator()(std::size_t a, std::size_t b) const {
      const CsvRow &x = (*rows)[a], &y = (*rows)[b];
      return x.view_at(kDevice) == y.view_at(kDevice) && x.view_at(kCaseId) == y.view_at(kCaseId);
    }
  };

  std::vector<CsvRow> merged_;
  std::unordered_set<std::size_t, KeyHash, SameKey> positions_{0, KeyHash{&merged_}, SameKey{&merged_}};
  std::size_t replaced_ = 0, replaced_with_other_verdict_ = 0;
};

}  // namespace

std::vector<CsvRow> merge_rows(std::vector<std::vector<CsvRow>> files, std::vector<std::string>* notes) {
  RowMerger merger;
  for (auto& rows : files) {
    for (auto& row : rows) merger.add(std::move(row));
    rows = {};  // each file's rows are let go once merged
  }
  return merger.take(notes);
}

RowSet load_row_set(const std::vector<std::filesystem::path>& paths) {
  const RowFiles files = RowFiles::load(paths);  // the one merge of files: by device and case_id
  RowSet set;
  set.rows.reserve(files.size());
  files.visit([&](std::size_t, const CsvRow& row) { set.rows.push_back(row); });
  set.notes = files.notes();
  set.sources = files.sources();
  return set;
}

}  // namespace gridfuzz::reports
