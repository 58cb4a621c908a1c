#include "gridfuzz/reports/csv_writer.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "detail/csv_text.hpp"
#include "detail/row_checker.hpp"
#include "gridfuzz/core/output_file.hpp"
#include "gridfuzz/core/text_file.hpp"
#include "gridfuzz/reports/vocabulary.hpp"

namespace gridfuzz::reports {
namespace {

std::string system_error_text(int error) { return std::strerror(error); }

// Opens the CSV at `path` for reading and appending, never through a link: an existing file
// without following one (O_NOFOLLOW), else a new one (create_new_file: O_EXCL, so a link or a file
// that appears meanwhile is not followed or truncated). A path that cannot be used as given (a
// link, a folder, no such folder) is CsvError (exit 2); one the system will not let gridfuzz
// write (permission, a read-only disk) is CsvIoError (exit 3).
int open_csv(const std::string& path) {
  // O_NONBLOCK: opening a FIFO must not wait for a reader (the caller refuses it).
  constexpr int kFlags = O_RDWR | O_APPEND | O_NONBLOCK;
  for (int attempt = 0; attempt < 3; ++attempt) {
    int fd = ::open(path.c_str(), kFlags | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
    if (fd < 0 && errno == ENOENT) {
      fd = create_new_file(path, kFlags);
      if (fd < 0 && errno == EEXIST) continue;  // created (or linked) meanwhile: look again
    }
    if (fd >= 0) return fd;
    const int error = errno;
    struct stat st {};
    if (error == ELOOP && ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode))
      throw CsvError(path + ": a symbolic link: a CSV is never written through a link (name the file itself)");
    const std::string why = path + ": cannot open for writing: " + system_error_text(error);
    if (error == ENOENT || error == ENOTDIR || error == EISDIR || error == ELOOP || error == ENXIO ||
        error == ENAMETOOLONG)
      throw CsvError(why);
    throw CsvIoError(why);
  }
  throw CsvError(path + ": keeps appearing and disappearing while it is opened");
}

// The whole file, read through the descriptor we append to, so the text we check is the text
// we extend (not a file swapped in between a separate read and the open). Capped like every read
// of an input (check_input_size): a larger file is no CSV of a sweep, and is refused untouched.
std::string read_all(int fd, const std::string& path, std::uint64_t size) {
  const std::string name = "the CSV '" + path + "'";
  try {
    check_input_size(size, name);
    std::string text;
    text.reserve(static_cast<std::size_t>(size));
    std::array<char, 1 << 16> buffer{};
    off_t offset = 0;
    for (;;) {
      const ssize_t n = ::pread(fd, buffer.data(), buffer.size(), offset);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw CsvIoError(path + ": read error: " + system_error_text(errno));
      if (n == 0) return text;
      check_input_size(text.size() + static_cast<std::size_t>(n), name);  // it may grow meanwhile
      text.append(buffer.data(), static_cast<std::size_t>(n));
      offset += n;
    }
  } catch (const InputFileError& error) {
    throw CsvError(std::string(error.what()) + "; nothing changed");
  }
}

// What a writer needs to know of an existing file, checked by the reader's checks (same major
// version, every column present, well-formed text; values unchecked) a record at a time.
struct ExistingText {
  std::optional<std::vector<std::string>> header;  // none: not one complete record
  std::size_t rows = 0;
  std::uint64_t complete_bytes = 0;
  std::optional<std::size_t> partial_line;
};

ExistingText scan_existing(std::string_view text, const std::string& name) {
  detail::RecordScanner scanner(text, name);
  std::optional<detail::RowChecker> checker;
  ExistingText out;
  detail::RawRecord record;
  while (scanner.next(record)) {
    if (!checker) {
      checker.emplace(record, name, CsvReadOptions{.check_values = false});
      out.header = record.fields;
      continue;
    }
    (void)checker->row(record);
    ++out.rows;
  }
  if (checker) checker->finish(scanner.partial_line(), scanner.partial_fields());
  out.complete_bytes = scanner.complete_bytes();
  out.partial_line = scanner.partial_line();
  return out;
}

// Why an existing header is not ours, or nothing when it is.
std::optional<std::string> header_difference(const std::vector<std::string>& header) {
  const std::string schema = "schema " + std::string(kSchemaVersion);
  const std::size_t common = std::min(header.size(), kColumnCount);
  for (std::size_t i = 0; i < common; ++i)
    if (header[i] != kColumns[i].name)
      return "column " + std::to_string(i + 1) + " is '" + header[i] + "', " + schema +
             " has '" + std::string(kColumns[i].name) + "' there";
  if (header.size() != kColumnCount)
    return "it has " + std::to_string(header.size()) + " columns, " + schema + " has " +
           std::to_string(kColumnCount);
  return std::nullopt;
}

// The minor whose exact column list `header` is, from kOldestAppendedMinor to ours; nothing for
// any other header.
std::optional<int> appendable_minor(const std::vector<std::string>& header) {
  for (int minor = kSchemaMinor; minor >= kOldestAppendedMinor; --minor)
    if (header.size() == column_count_of_minor(minor) &&
        std::equal(header.begin(), header.end(), kColumns.begin(),
                   [](const std::string& name, const Column& column) { return name == column.name; }))
      return minor;
  return std::nullopt;
}

struct AppendTo {
  ExistingText existing;
  int minor = kSchemaMinor;  // the schema minor of the file's header: its rows are written in it
};

// Checks that rows may be appended to an existing file: the reader's checks (scan_existing),
// then the exact column list of this schema or of an older minor this writer writes
// (kOldestAppendedMinor), since rows of one schema under another's header would be a silent mix.
AppendTo checked_for_append(std::string_view text, const std::string& name) {
  try {
    AppendTo out{scan_existing(text, name)};
    if (!out.existing.header) return out;
    const auto& header = *out.existing.header;
    const auto minor = appendable_minor(header);
    if (!minor)
      throw CsvError(name + ":1: the header differs from schema " + std::string(kSchemaVersion) + ": " +
                         header_difference(header).value_or("?"),
                     1);
    out.minor = *minor;
    return out;
  } catch (const CsvError& error) {
    throw CsvError("cannot append to " + std::string(error.what()), error.line());
  }
}

void write_fully(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw CsvIoError(path + ": write error: " + system_error_text(errno));
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

// <path>.<mtime as UTC>.bak, or with -2, -3, ... when taken.
std::string backup_stem(const std::string& path, const struct stat& st) {
  const std::time_t t = st.st_mtim.tv_sec;
  std::tm utc{};
  gmtime_r(&t, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &utc);
  return path + "." + stamp;
}

// Copies `text` to a new file beside `path` and returns its name. The copy is written whole to a
// temporary file (.<file>.gridfuzz-set-aside-N, which no pattern of set-aside copies matches),
// synced, then renamed to its .bak name without replacing one (RENAME_NOREPLACE): a copy cut
// short by a kill or a full disk never stands under a .bak name, where it would count among the
// copies kept and push out a whole one.
std::filesystem::path copy_aside(const std::string& path, const struct stat& st, std::string_view text) {
  const std::filesystem::path csv(path);
  std::string temporary;
  int fd = -1;
  for (int n = 0; n < 100 && fd < 0; ++n) {
    std::string name(1, '.');
    name += csv.filename().string();
    name += ".gridfuzz-set-aside-" + std::to_string(::getpid()) + "-" + std::to_string(n);
    temporary = (csv.has_parent_path() ? csv.parent_path() / name : std::filesystem::path(name)).string();
    fd = create_new_file(temporary);
    if (fd < 0 && errno != EEXIST)
      throw CsvIoError("cannot set " + path + " aside: cannot create " + temporary + ": " + system_error_text(errno));
  }
  if (fd < 0) throw CsvIoError("cannot set " + path + " aside: no free temporary name beside it");
  try {
    const std::string what = "cannot set " + path + " aside: " + temporary;
    write_fully(fd, text, what);
    if (::fsync(fd) != 0) throw CsvIoError(what + ": cannot sync: " + system_error_text(errno));
    const int closed = ::close(fd);
    fd = -1;
    if (closed != 0) throw CsvIoError(what + ": write error: " + system_error_text(errno));
    const std::string stem = backup_stem(path, st);
    for (int n = 1; n < 1000; ++n) {
      std::string name = stem;
      if (n > 1) name += '-' + std::to_string(n);
      name += ".bak";
      int rc = ::renameat2(AT_FDCWD, temporary.c_str(), AT_FDCWD, name.c_str(), RENAME_NOREPLACE);
      if (rc != 0 && (errno == EINVAL || errno == ENOSYS)) {  // no renameat2 here: link, never over a file
        rc = ::link(temporary.c_str(), name.c_str());
        if (rc == 0) ::unlink(temporary.c_str());
      }
      if (rc == 0) return name;
      if (errno != EEXIST)
        throw CsvIoError("cannot set " + path + " aside: cannot rename " + temporary + " to " + name + ": " +
                         system_error_text(errno));
    }
    throw CsvIoError("cannot set " + path + " aside: " + stem + "-*.bak are all taken");
  } catch (...) {
    if (fd >= 0) ::close(fd);
    ::unlink(temporary.c_str());
    throw;
  }
}

// How many set-aside copies of one CSV are kept: the newest, counting the one just made. Every
// rerun of a sweep over the same --csv makes one; without a limit they would pile up.
constexpr std::size_t kKeepSetAside = 3;

// True for a name copy_aside makes for `base`: <base>.<YYYYmmddTHHMMSSZ>[-<n>].bak.
bool is_set_aside_name(const std::string& name, const std::string& base) {
  const std::string suffix = ".bak";
  if (name.size() < base.size() + 1 + 16 + suffix.size() || !name.starts_with(base + ".") || !name.ends_with(suffix))
    return false;
  const std::string middle = name.substr(base.size() + 1, name.size() - base.size() - 1 - suffix.size());
  const auto digits = [&](std::size_t from, std::size_t n) {
    for (std::size_t i = from; i < from + n; ++i)
      if (i >= middle.size() || middle[i] < '0' || middle[i] > '9') return false;
    return true;
  };
  if (!digits(0, 8) || middle[8] != 'T' || !digits(9, 6) || middle[15] != 'Z') return false;
  if (middle.size() == 16) return true;
  return middle[16] == '-' && middle.size() > 17 && digits(17, middle.size() - 17);
}

// True when the file starts like a gridfuzz CSV (its first column is "schema"): a set-aside copy
// holds the rows of a gridfuzz CSV, whatever its schema version.
bool starts_like_a_gridfuzz_csv(const std::filesystem::path& p) {
  const std::string start = std::string(kColumns[0].name) + ",";
  const int fd = ::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return false;
  std::string head(start.size(), '\0');
  const ssize_t n = ::pread(fd, head.data(), head.size(), 0);
  ::close(fd);
  return n == static_cast<ssize_t>(start.size()) && head == start;
}

// Deletes the set-aside copies of `path` beyond the newest kKeepSetAside (by the copy's own
// modification time: when it was set aside), never `just_made` and never anything but a regular
// file named as copy_aside names them that starts like a gridfuzz CSV. Best effort: a copy that
// cannot be deleted stays.
void prune_set_aside(const std::string& path, const std::filesystem::path& just_made) {
  namespace fs = std::filesystem;
  const fs::path csv(path);
  const fs::path dir = csv.has_parent_path() ? csv.parent_path() : fs::path(".");
  const std::string base = csv.filename().string();
  struct Copy {
    fs::path path;
    struct timespec mtime;
  };
  std::vector<Copy> copies;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path p = it->path();
    if (!is_set_aside_name(p.filename().string(), base) || p.filename() == just_made.filename()) continue;
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || !starts_like_a_gridfuzz_csv(p)) continue;
    copies.push_back({p, st.st_mtim});
  }
  if (copies.size() < kKeepSetAside) return;
  std::sort(copies.begin(), copies.end(), [](const Copy& a, const Copy& b) {
    if (a.mtime.tv_sec != b.mtime.tv_sec) return a.mtime.tv_sec > b.mtime.tv_sec;
    if (a.mtime.tv_nsec != b.mtime.tv_nsec) return a.mtime.tv_nsec > b.mtime.tv_nsec;
    return a.path.filename().string() > b.path.filename().string();
  });
  for (std::size_t i = kKeepSetAside - 1; i < copies.size(); ++i) ::unlink(copies[i].path.c_str());
}

}  // namespace

CsvWriter::CsvWriter(std::filesystem::path path, const CsvWriterOptions& options)
    : path_(std::move(path)), options_(options) {
  const std::string name = path_.string();
  // O_APPEND: every write lands at the current end, whatever else happened to the file.
  fd_ = open_csv(name);
  try {
    struct stat st {};
    if (::fstat(fd_, &st) != 0) throw CsvIoError(name + ": cannot stat: " + system_error_text(errno));
    if (!S_ISREG(st.st_mode)) throw CsvError(name + ": not a regular file: a CSV is never written there");
    if (::fcntl(fd_, F_SETFL, O_APPEND) != 0)
      throw CsvIoError(name + ": cannot set file flags: " + system_error_text(errno));
    // Two writers on one file would interleave rows and cut each other's "partial" rows.
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0)
      throw CsvError(name + ": " +
                     (errno == EWOULDBLOCK ? std::string("another writer has it open (locked); nothing changed")
                                           : "cannot lock: " + system_error_text(errno)));

    std::string text = read_all(fd_, name, static_cast<std::uint64_t>(st.st_size));
    const std::string header = detail::header_line();
    std::optional<std::size_t> truncate_to;
    if (!text.empty() && options_.existing == ExistingCsv::set_aside) {
      // Only a gridfuzz CSV is ever changed; anything else stays exactly as it was.
      try {
        const ExistingText existing = scan_existing(text, name);
        if (!existing.header && !header.starts_with(text.substr(existing.complete_bytes)))
          throw CsvError(name + ": no header line");
      } catch (const CsvIoError&) {
        throw;
      } catch (const CsvError& error) {
        throw CsvError(name + " exists and is not a gridfuzz CSV, so it is left as it is (" + error.what() +
                       "); choose another --csv");
      }
      set_aside_to_ = copy_aside(name, st, text);
      prune_set_aside(name, *set_aside_to_);
      if (::ftruncate(fd_, 0) != 0)
        throw CsvIoError(name + ": cannot empty it after setting it aside: " + system_error_text(errno));
      text.clear();
    }
    if (text.empty()) {
      write_all(header);
    } else {
      const AppendTo append_to = checked_for_append(text, name);
      const ExistingText& existing = append_to.existing;
      minor_ = append_to.minor;
      if (!existing.header) {
        // Killed while writing the header: start the file again.
        const std::string_view rest = std::string_view(text).substr(existing.complete_bytes);
        if (!existing.partial_line || !header.starts_with(rest))
          throw CsvError("cannot append to " + name + ": the file has no header line");
        truncate_to = 0;
      } else {
        rows_at_open_ = existing.rows;
        if (existing.partial_line) truncate_to = existing.complete_bytes;
      }
      truncated_partial_line_ = existing.partial_line;
    }
    if (truncate_to) {
      // The partial row is of a case that never finished; the resumed sweep runs it again.
      if (::ftruncate(fd_, static_cast<off_t>(*truncate_to)) != 0)
        throw CsvError(name + ": cannot cut off the unterminated last row: " +
                       system_error_text(errno));
      if (*truncate_to == 0) write_all(header);
    }
  } catch (...) {
    close();  // no destructor runs for a constructor that throws
    throw;
  }
}

CsvWriter::~CsvWriter() { close(); }

CsvWriter::CsvWriter(CsvWriter&& other) noexcept
    : path_(std::move(other.path_)),
      options_(other.options_),
      fd_(std::exchange(other.fd_, -1)),
      rows_at_open_(other.rows_at_open_),
      rows_written_(other.rows_written_),
      minor_(other.minor_),
      truncated_partial_line_(other.truncated_partial_line_),
      set_aside_to_(std::move(other.set_aside_to_)) {}

CsvWriter& CsvWriter::operator=(CsvWriter&& other) noexcept {
  if (this != &other) {
    close();
    path_ = std::move(other.path_);
    options_ = other.options_;
    fd_ = std::exchange(other.fd_, -1);
    rows_at_open_ = other.rows_at_open_;
    rows_written_ = other.rows_written_;
    minor_ = other.minor_;
    truncated_partial_line_ = other.truncated_partial_line_;
    set_aside_to_ = std::move(other.set_aside_to_);
  }
  return *this;
}

void CsvWriter::close() noexcept {
  if (fd_ >= 0) ::close(fd_);  // also releases the lock
  fd_ = -1;
}

void CsvWriter::write(const CsvRow& row) {
  const std::string name = path_.string();
  if (fd_ < 0) throw CsvError(name + ": writer is closed");
  const std::string& version_text = row.get("schema");
  const auto version = parse_schema_version(version_text);
  if (!version || version->major != kSchemaMajor || version->minor > kSchemaMinor)
    throw CsvError(name + ": cannot write a row of schema '" + version_text +
                   "' with a schema " + std::string(kSchemaVersion) + " header");
  if (options_.check_values)
    if (const auto problem = check_row(row))
      throw CsvError(name + ": row rejected: " + *problem);

  std::string line;
  if (minor_ == kSchemaMinor) {
    detail::append_record(line, std::span<const std::string>(row.values()));
  } else {
    // A file of an older minor gets the row in that minor: its columns, under its version.
    const auto values = row.values();
    std::vector<std::string> fields(values.begin(), values.begin() + column_count_of_minor(minor_));
    if (version->minor > minor_) fields[0] = std::to_string(kSchemaMajor) + "." + std::to_string(minor_);
    detail::append_record(line, std::span<const std::string>(fields));
  }
  write_all(line);
  ++rows_written_;
}

void CsvWriter::write_all(std::string_view bytes) {
  // One write() per row in practice: a kill leaves a row whole or absent. The loop only
  // matters for interrupted or short writes.
  write_fully(fd_, bytes, path_.string());
}

}  // namespace gridfuzz::reports
