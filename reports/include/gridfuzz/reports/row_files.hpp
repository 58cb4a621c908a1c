#pragma once
// CSVs read as one run without holding their rows (issue 34: report and diff of a 1 GB CSV). The
// first read merges them as load_row_set does (by device and case_id; a case in several files
// keeps the row of the file named last, in the place where the case was first seen) and keeps,
// per merged row, where it is in its file: about 28 bytes a row. The files stay open, and a row is
// read again (and checked again) when the rows are visited or one is fetched.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gridfuzz/reports/csv_error.hpp"
#include "gridfuzz/reports/csv_reader.hpp"
#include "gridfuzz/reports/row_source.hpp"
#include "gridfuzz/reports/string_pool.hpp"

namespace gridfuzz::reports {

class RowFiles final : public RowSource {
 public:
  // Reads and merges the files. Throws CsvError for a file that is missing, corrupt, of another
  // schema major version or missing a column (the reader's checks, with path:line).
  static RowFiles load(const std::vector<std::filesystem::path>& paths);

  std::size_t size() const override { return locations_.size(); }
  void visit(const std::function<void(std::size_t, const CsvRow&)>& each) const override;
  CsvRow at(std::size_t position) const override;

  std::optional<std::size_t> find(std::string_view device, std::string_view case_id) const override;

  // The devices of the rows, each once.
  std::vector<std::string> devices() const;
  const std::vector<std::string>& notes() const { return notes_; }      // partial rows, duplicates...
  const std::vector<std::string>& sources() const { return sources_; }  // "path (N rows)"

 private:
  // A case's key in a few bytes: its device's id, and its case id as the 64-bit number of its 16
  // hex digits (what gridfuzz writes) or, for any other text, that text's id in case_texts_.
  struct Key {
    std::uint64_t id = 0;
    std::uint32_t device = 0;  // the top bit: `id` is a case_texts_ id
    std::uint32_t position = 0;
    bool operator<(const Key& other) const { return id != other.id ? id < other.id : device < other.device; }
    bool same_case(const Key& other) const { return id == other.id && device == other.device; }
  };
  std::optional<Key> key_of(std::string_view device, std::string_view case_id, bool add);
  std::optional<Key> key_of(std::string_view device, std::string_view case_id) const;
  CsvRow read(std::size_t position) const;

  std::vector<std::unique_ptr<CsvRowStream>> files_;  // open, in the order given
  std::vector<std::string> paths_;
  std::vector<std::uint64_t> locations_;  // per position: the file's index << 40 | the row's byte offset
  std::vector<std::uint32_t> lines_;      // per position: the line the row starts on
  std::vector<Key> keys_;                 // sorted, each case once, with its position
  StringPool devices_, case_texts_;
  std::vector<std::string> notes_, sources_;
};

}  // namespace gridfuzz::reports
