#include "gridfuzz/reports/row_files.hpp"

#include <algorithm>
#include <numeric>

#include "gridfuzz/reports/schema.hpp"

namespace gridfuzz::reports {
namespace {

constexpr std::uint32_t kTextId = 0x8000'0000u;  // Key::device's flag: the id is a text's
constexpr int kOffsetBits = 40;                  // a file of at most 1 TiB (the reader's cap is 1 GiB)

// "0123456789abcdef" x 16 -> its number; what gridfuzz writes in case_id.
std::optional<std::uint64_t> hex16(std::string_view text) {
  if (text.size() != 16) return std::nullopt;
  std::uint64_t value = 0;
  for (const char c : text) {
    const int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
    if (digit < 0) return std::nullopt;
    value = value << 4 | static_cast<std::uint64_t>(digit);
  }
  return value;
}

}  // namespace

std::optional<RowFiles::Key> RowFiles::key_of(std::string_view device, std::string_view case_id, bool add) {
  if (add) {
    Key key;
    key.device = devices_.intern(device);
    if (const auto id = hex16(case_id)) {
      key.id = *id;
    } else {
      key.id = case_texts_.intern(case_id);
      key.device |= kTextId;
    }
    return key;
  }
  return static_cast<const RowFiles*>(this)->key_of(device, case_id);
}

std::optional<RowFiles::Key> RowFiles::key_of(std::string_view device, std::string_view case_id) const {
  const auto device_id = devices_.find(device);
  if (!device_id) return std::nullopt;
  Key key;
  key.device = *device_id;
  if (const auto id = hex16(case_id)) {
    key.id = *id;
  } else {
    const auto text = case_texts_.find(case_id);
    if (!text) return std::nullopt;
    key.id = *text;
    key.device |= kTextId;
  }
  return key;
}

RowFiles RowFiles::load(const std::vector<std::filesystem::path>& paths) {
  static constexpr std::size_t kDevice = *column_index("device"), kCaseId = *column_index("case_id"),
                               kVerdict = *column_index("verdict");
  RowFiles files;
  // Every row read, in file order (its sequence number): its key, where it is, its verdict.
  std::vector<Key> seen;
  std::vector<std::uint64_t> location_of;
  std::vector<std::uint32_t> line_of;
  std::vector<std::uint8_t> verdict_of;
  for (const auto& path : paths) {
    const std::uint64_t file = files.files_.size();
    auto& stream = files.files_.emplace_back(std::make_unique<CsvRowStream>(path));
    files.paths_.push_back(path.string());
    CsvRow row;
    std::size_t line = 0;
    while (stream->next(row, line)) {
      Key key = *files.key_of(row.view_at(kDevice), row.view_at(kCaseId), true);
      key.position = static_cast<std::uint32_t>(seen.size());
      seen.push_back(key);
      location_of.push_back(file << kOffsetBits | stream->row_offset());
      line_of.push_back(static_cast<std::uint32_t>(line));
      verdict_of.push_back(verdict_byte(Verdict::parse(row.view_at(kVerdict))));
    }
    files.sources_.push_back(path.string() + " (" + std::to_string(stream->rows_read()) + " rows)");
    if (const auto partial = stream->dropped_partial_line())
      files.notes_.push_back(path.string() + ": an unfinished last row (line " + std::to_string(*partial) +
                             ") was dropped: its case did not finish");
    if (!stream->ignored_columns().empty()) {
      std::string names;
      for (const auto& n : stream->ignored_columns()) names += (names.empty() ? "" : ", ") + n;
      files.notes_.push_back(path.string() + ": columns of a newer schema minor version ignored: " + names);
    }
  }

  // The rows of one case together, in the order read: the last is kept, in the place of the first.
  std::stable_sort(seen.begin(), seen.end());
  std::size_t replaced = 0, replaced_with_other_verdict = 0;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> first_and_kept;  // per case, in key order
  for (std::size_t i = 0; i < seen.size();) {
    std::size_t end = i + 1;
    for (; end < seen.size() && seen[end].same_case(seen[i]); ++end) {
      ++replaced;
      if (verdict_of[seen[end - 1].position] != verdict_of[seen[end].position]) ++replaced_with_other_verdict;
    }
    first_and_kept.emplace_back(seen[i].position, seen[end - 1].position);
    seen[first_and_kept.size() - 1] = seen[i];
    i = end;
  }
  seen.resize(first_and_kept.size());
  verdict_of = {};
  // Positions: the cases in the order their first row was read.
  std::vector<std::uint32_t> by_first(first_and_kept.size());
  std::iota(by_first.begin(), by_first.end(), 0u);
  std::sort(by_first.begin(), by_first.end(),
            [&](std::uint32_t a, std::uint32_t b) { return first_and_kept[a].first < first_and_kept[b].first; });
  files.locations_.resize(by_first.size());
  files.lines_.resize(by_first.size());
  for (std::size_t position = 0; position < by_first.size(); ++position) {
    const std::uint32_t kept = first_and_kept[by_first[position]].second;
    files.locations_[position] = location_of[kept];
    files.lines_[position] = line_of[kept];
    seen[by_first[position]].position = static_cast<std::uint32_t>(position);
  }
  files.keys_ = std::move(seen);
  if (replaced > 0)
    files.notes_.push_back(std::to_string(replaced) +
                           " case(s) appear more than once (same device and case_id); the last file's row is kept" +
                           (replaced_with_other_verdict
                                ? " (" + std::to_string(replaced_with_other_verdict) + " of them with a different verdict)"
                                : std::string()));
  return files;
}

CsvRow RowFiles::read(std::size_t position) const {
  const std::uint64_t location = locations_[position];
  CsvRowStream& stream = *files_[location >> kOffsetBits];
  stream.seek(location & ((std::uint64_t{1} << kOffsetBits) - 1), lines_[position]);
  CsvRow row;
  std::size_t line = 0;
  // The files are open since the first read, and a writer only appends: the row is where it was.
  if (!stream.next(row, line))
    throw CsvError(paths_[location >> kOffsetBits] + ":" + std::to_string(lines_[position]) +
                   ": the row read before is gone (the file changed while gridfuzz read it)");
  return row;
}

void RowFiles::visit(const std::function<void(std::size_t, const CsvRow&)>& each) const {
  for (std::size_t position = 0; position < size(); ++position) each(position, read(position));
}

CsvRow RowFiles::at(std::size_t position) const { return read(position); }

std::vector<std::string> RowFiles::devices() const {
  std::vector<std::string> out;
  for (std::uint32_t id = 0; id < devices_.size(); ++id) out.emplace_back(devices_.text(id));
  return out;
}

std::optional<std::size_t> RowFiles::find(std::string_view device, std::string_view case_id) const {
  const auto key = key_of(device, case_id);
  if (!key) return std::nullopt;
  const auto it = std::lower_bound(keys_.begin(), keys_.end(), *key);
  if (it == keys_.end() || !it->same_case(*key)) return std::nullopt;
  return it->position;
}

}  // namespace gridfuzz::reports
