#include "gridfuzz/core/output_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <random>

namespace gridfuzz {
namespace fs = std::filesystem;

namespace {

std::string quoted(const fs::path& p) {
  std::string s(1, '\'');
  s += p.string();
  s += '\'';
  return s;
}

// ".NAME.gridfuzz-": the start of a temporary name beside NAME.
std::string temporary_prefix(const fs::path& name) {
  std::string s(1, '.');
  s += name.string();
  s += ".gridfuzz-";
  return s;
}

std::string error_text(int error) { return std::strerror(error); }

// Closes the descriptor on every path out.
struct Descriptor {
  int fd = -1;
  Descriptor() = default;
  explicit Descriptor(int f) : fd(f) {}
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
  // Closes now, reporting the error (a close can be the first to see a failed write).
  int close_checked() {
    const int rc = ::close(fd);
    fd = -1;
    return rc;
  }
};

// The folder a file is in ("." for a bare name).
fs::path folder_of(const fs::path& p) { return p.has_parent_path() ? p.parent_path() : fs::path("."); }

// `text` written whole to `fd`; a failure is FileWriteError naming `name`.
void write_fully(int fd, std::string_view text, const std::string& name) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw FileWriteError(name + ": write error: " + error_text(errno));
    if (n == 0) throw FileWriteError(name + ": write error: nothing written");
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

// A random suffix for a temporary name (create_new_file refuses a taken one: the caller retries).
std::string random_suffix() {
  static std::mt19937_64 engine{std::random_device{}() ^ (static_cast<std::uint64_t>(::getpid()) << 32)};
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string s;
  for (int i = 0; i < 10; ++i) s += kAlphabet[engine() % (sizeof(kAlphabet) - 1)];
  return s;
}

std::string what_it_is(const struct stat& st) {
  if (S_ISDIR(st.st_mode)) return "a folder";
  if (S_ISLNK(st.st_mode)) return "a symbolic link";
  if (S_ISBLK(st.st_mode)) return "a block device";
  if (S_ISSOCK(st.st_mode)) return "a socket";
  return "not a regular file";
}

// The output is none of the command's inputs.
void check_not_an_input(const OutputFile& out) {
  for (const auto& [label, input] : out.inputs) {
    if (is_same_file(out.path, input))
      throw OutputPathError(out.option + " " + quoted(out.path) + " is the same file as " + label + " " + quoted(input) +
                            ": an output never replaces an input of the command");
  }
}

// The first bytes of the regular file at `path` (opened without following a link), and whether it
// is empty.
std::string head_of(const OutputFile& out) {
  Descriptor file{::open(out.path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)};
  if (file.fd < 0)
    throw OutputPathError(out.option + " " + quoted(out.path) + " exists and cannot be read to check that gridfuzz wrote it (" +
                          error_text(errno) + "); it is left as it is");
  struct stat st {};
  if (::fstat(file.fd, &st) != 0 || !S_ISREG(st.st_mode))
    throw OutputPathError(out.option + " " + quoted(out.path) + " changed while it was checked; it is left as it is");
  std::string head(kOutputHeadBytes, '\0');
  std::size_t have = 0;
  while (have < head.size()) {
    const ssize_t n = ::pread(file.fd, head.data() + have, head.size() - have, static_cast<off_t>(have));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      throw FileWriteError(out.option + " " + quoted(out.path) + ": cannot read it to check that gridfuzz wrote it: " +
                           error_text(errno));
    if (n == 0) break;
    have += static_cast<std::size_t>(n);
  }
  head.resize(have);
  return head;
}

enum class Target { absent, replace, stream };

// What the output's path is now; throws when it may not be written.
Target classify(const OutputFile& out) {
  const std::string name = out.option + " " + quoted(out.path);
  if (out.path.empty()) throw OutputPathError(out.option + ": an empty path");
  check_not_an_input(out);
  struct stat st {};
  if (::lstat(out.path.c_str(), &st) != 0) {
    const int error = errno;
    if (error == ENOENT) {
      // The folder must exist: a path that names no folder is a mistake, not the environment.
      struct stat folder {};
      const fs::path dir = folder_of(out.path);
      if (::stat(dir.c_str(), &folder) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
          throw OutputPathError(name + ": cannot write there: the folder " + quoted(dir) + " does not exist");
        throw FileWriteError(name + ": cannot reach the folder " + quoted(dir) + ": " + error_text(errno));
      }
      if (!S_ISDIR(folder.st_mode)) throw OutputPathError(name + ": " + quoted(dir) + " is not a folder");
      return Target::absent;
    }
    if (error == ENOTDIR) throw OutputPathError(name + ": a part of the path is not a folder");
    throw FileWriteError(name + ": cannot look at it: " + error_text(error));
  }
  if (S_ISREG(st.st_mode)) {
    if (out.must_be_new) throw OutputPathError(name + " exists already; it is left as it is");
    const std::string head = head_of(out);
    if (!head.empty() && !(out.is_ours && out.is_ours(head)))
      throw OutputPathError(name + " exists and is not " + out.kind +
                            " gridfuzz wrote, so it is left as it is; choose another path (or remove it)");
    return Target::replace;
  }
  if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) return Target::stream;
  if (S_ISLNK(st.st_mode)) {
    // A link is followed only to what is written in place (/dev/stdout, /dev/fd/N).
    struct stat to {};
    if (::stat(out.path.c_str(), &to) == 0 && (S_ISCHR(to.st_mode) || S_ISFIFO(to.st_mode))) return Target::stream;
    throw OutputPathError(name + " is a symbolic link: gridfuzz writes no file through a link (name the file itself)");
  }
  throw OutputPathError(name + " is " + what_it_is(st) + ": " + out.kind + " is never written there");
}

// Writes to a character device or FIFO in place.
void write_stream(const OutputFile& out, std::string_view bytes) {
  const std::string name = out.option + " " + quoted(out.path);
  // O_NONBLOCK: a FIFO with no reader is refused (ENXIO) instead of waiting for one.
  Descriptor file{::open(out.path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)};
  if (file.fd < 0) {
    const int error = errno;
    if (error == ENXIO) throw OutputPathError(name + ": a FIFO with no reader");
    throw FileWriteError(name + ": cannot open for writing: " + error_text(error));
  }
  struct stat st {};
  if (::fstat(file.fd, &st) != 0 || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)))
    throw OutputPathError(name + " changed while it was opened; nothing written");
  const int flags = ::fcntl(file.fd, F_GETFL);
  if (flags == -1 || ::fcntl(file.fd, F_SETFL, flags & ~O_NONBLOCK) != 0)
    throw FileWriteError(name + ": cannot set file flags: " + error_text(errno));
  write_fully(file.fd, bytes, name);
  if (file.close_checked() != 0) throw FileWriteError(name + ": write error: " + error_text(errno));
}

// Renames the finished temporary file to the output's path: over nothing (RENAME_NOREPLACE, or
// link+unlink where the file system has no renameat2) or over the file checked just before.
void install(const fs::path& temporary, const OutputFile& out, Target target) {
  const std::string name = out.option + " " + quoted(out.path);
  if (target == Target::replace) {
    if (::rename(temporary.c_str(), out.path.c_str()) != 0)
      throw FileWriteError(name + ": cannot rename " + quoted(temporary) + " to it: " + error_text(errno));
    return;
  }
  if (::renameat2(AT_FDCWD, temporary.c_str(), AT_FDCWD, out.path.c_str(), RENAME_NOREPLACE) == 0) return;
  int error = errno;
  if (error == EINVAL || error == ENOSYS) {
    if (::link(temporary.c_str(), out.path.c_str()) == 0) {
      ::unlink(temporary.c_str());
      return;
    }
    error = errno;
  }
  if (error == EEXIST) throw OutputPathError(name + " appeared while it was written; it is left as it is");
  throw FileWriteError(name + ": cannot rename " + quoted(temporary) + " to it: " + error_text(error));
}

}  // namespace

bool is_same_file(const fs::path& a, const fs::path& b) {
  struct stat sa {}, sb {};
  if (::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  std::error_code ea, eb;
  const fs::path ra = fs::weakly_canonical(a, ea), rb = fs::weakly_canonical(b, eb);
  return !ea && !eb && ra == rb;
}

int create_new_file(const fs::path& path, int flags) {
  return ::open(path.c_str(), O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | flags, 0666);
}

void check_output_file(const OutputFile& out) { classify(out); }

void write_output_file(const OutputFile& out, std::string_view bytes) {
  const std::string name = out.option + " " + quoted(out.path);
  const Target target = classify(out);
  if (target == Target::stream) return write_stream(out, bytes);
  if (out.must_be_new) {
    Descriptor file{create_new_file(out.path)};
    if (file.fd < 0) {
      const int error = errno;
      if (error == EEXIST) throw OutputPathError(name + " exists already; it is left as it is");
      throw FileWriteError(name + ": cannot create it: " + error_text(error));
    }
    write_fully(file.fd, bytes, name);
    if (file.close_checked() != 0) throw FileWriteError(name + ": write error: " + error_text(errno));
    return;
  }
  // A temporary file beside the output: the rename is then within one file system, atomic.
  const fs::path dir = folder_of(out.path);
  fs::path temporary;
  Descriptor file;
  for (int attempt = 0; attempt < 100 && file.fd < 0; ++attempt) {
    temporary = dir / (temporary_prefix(out.path.filename()) + random_suffix());
    file.fd = create_new_file(temporary);
    if (file.fd < 0 && errno != EEXIST)
      throw FileWriteError(name + ": cannot create a file in " + quoted(dir) + ": " + error_text(errno));
  }
  if (file.fd < 0) throw FileWriteError(name + ": no free temporary name in " + quoted(dir));
  try {
    write_fully(file.fd, bytes, name);
    if (::fsync(file.fd) != 0) throw FileWriteError(name + ": cannot sync: " + error_text(errno));
    if (file.close_checked() != 0) throw FileWriteError(name + ": write error: " + error_text(errno));
    install(temporary, out, target);
  } catch (...) {
    ::unlink(temporary.c_str());
    throw;
  }
}

NewOutputFile::NewOutputFile(OutputFile out) : out_(std::move(out)), name_(out_.option + " " + quoted(out_.path)) {
  if (!out_.must_be_new) throw std::logic_error("NewOutputFile writes only into a folder gridfuzz owns");
  fd_ = create_new_file(out_.path);
  if (fd_ < 0) {
    const int error = errno;
    if (error == EEXIST) throw OutputPathError(name_ + " exists already; it is left as it is");
    throw FileWriteError(name_ + ": cannot create it: " + error_text(error));
  }
}

NewOutputFile::~NewOutputFile() {
  if (fd_ >= 0) ::close(fd_);
}

void NewOutputFile::flush() {
  write_fully(fd_, buffer_, name_);
  buffer_.clear();
}

void NewOutputFile::write(std::string_view bytes) {
  constexpr std::size_t kBuffer = std::size_t{1} << 16;
  buffer_.append(bytes);
  if (buffer_.size() >= kBuffer) flush();
}

void NewOutputFile::close() {
  flush();
  const int rc = ::close(fd_);
  fd_ = -1;
  if (rc != 0) throw FileWriteError(name_ + ": write error: " + error_text(errno));
}

// ---- FreshFolder ----------------------------------------------------------------------------

namespace {

// The entries of the folder open at `dir_fd` (not "." and ".."), each with its lstat.
struct Entry {
  std::string name;
  struct stat st;
};

// Lists the folder at `name` below `parent_fd` (AT_FDCWD: a path), opened without following a
// link. Returns the descriptor (owned by the caller) or -1, and fills `entries`.
int list_folder(int parent_fd, const std::string& name, std::vector<Entry>& entries) {
  const int fd = ::openat(parent_fd, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return -1;
  const int for_dir = ::dup(fd);
  DIR* dir = for_dir >= 0 ? ::fdopendir(for_dir) : nullptr;
  if (!dir) {
    if (for_dir >= 0) ::close(for_dir);
    ::close(fd);
    return -1;
  }
  while (const dirent* e = ::readdir(dir)) {
    const std::string n = e->d_name;
    if (n == "." || n == "..") continue;
    Entry entry{n, {}};
    if (::fstatat(fd, n.c_str(), &entry.st, AT_SYMLINK_NOFOLLOW) != 0) continue;  // gone meanwhile
    entries.push_back(entry);
  }
  ::closedir(dir);
  return fd;
}

// The first entry below the folder that gridfuzz does not write there, if there is one; sets
// `has_marker` when the marker (a regular file) is at its top.
std::optional<fs::path> first_unknown(int parent_fd, const std::string& name, const fs::path& relative,
                                      const FreshFolder::Rules& rules, bool& has_marker) {
  std::vector<Entry> entries;
  const int fd = list_folder(parent_fd, name, entries);
  if (fd < 0) return relative.empty() ? fs::path(".") : relative;  // unreadable: not known to be ours
  Descriptor owned{fd};
  for (const Entry& e : entries) {
    const fs::path rel = relative / e.name;
    const bool is_folder = S_ISDIR(e.st.st_mode);
    if (relative.empty() && e.name == rules.marker && S_ISREG(e.st.st_mode)) {
      has_marker = true;
      continue;
    }
    if (!rules.known || !rules.known(rel, is_folder) || (!is_folder && !S_ISREG(e.st.st_mode))) return rel;
    if (is_folder)
      if (auto unknown = first_unknown(fd, e.name, rel, rules, has_marker)) return unknown;
  }
  return std::nullopt;
}

// Deletes the entries gridfuzz writes below the folder (never following a link: each folder is
// opened with O_NOFOLLOW, each entry unlinked from its folder's descriptor), then the folder.
// True when the folder is gone.
bool remove_known(int parent_fd, const std::string& name, const fs::path& relative, const FreshFolder::Rules& rules) {
  std::vector<Entry> entries;
  const int fd = list_folder(parent_fd, name, entries);
  if (fd < 0) return false;
  {
    Descriptor owned{fd};
    for (const Entry& e : entries) {
      const fs::path rel = relative / e.name;
      const bool is_folder = S_ISDIR(e.st.st_mode);
      const bool marker = relative.empty() && e.name == rules.marker && S_ISREG(e.st.st_mode);
      if (!marker && !(rules.known && rules.known(rel, is_folder))) continue;
      if (is_folder)
        remove_known(fd, e.name, rel, rules);
      else if (S_ISREG(e.st.st_mode))
        ::unlinkat(fd, e.name.c_str(), 0);
    }
  }
  return ::unlinkat(parent_fd, name.c_str(), AT_REMOVEDIR) == 0;
}

// `p` without trailing separators ("out/" -> "out").
fs::path without_trailing_slash(const fs::path& p) {
  std::string s = p.string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return fs::path(s);
}

// Whether `inner` is `outer` or below it (both resolved).
bool is_within(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (o->empty()) continue;  // a trailing separator
    if (i == inner.end() || *i != *o) return false;
  }
  return true;
}

// Throws unless the existing folder at `target` may be replaced: an empty folder, or one with
// the marker and only known entries.
void check_earlier_folder(const fs::path& target, const FreshFolder::Rules& rules) {
  const std::string name = rules.option + " " + quoted(target);
  std::vector<Entry> entries;
  const int fd = list_folder(AT_FDCWD, target.string(), entries);
  if (fd < 0) throw OutputPathError(name + ": cannot read the folder (" + error_text(errno) + "); it is left as it is");
  ::close(fd);
  bool has_marker = false;
  const auto unknown = first_unknown(AT_FDCWD, target.string(), fs::path(), rules, has_marker);
  if (unknown)
    throw OutputPathError(name + " holds " + quoted(*unknown) +
                          ", which gridfuzz did not write there, so the folder is left as it is: give a new folder "
                          "(or one gridfuzz wrote, with its " + rules.marker + ")");
  if (!has_marker && !entries.empty())
    throw OutputPathError(name + " has no " + rules.marker +
                          ", so gridfuzz did not write it; it is left as it is: give a new folder");
}

// Throws unless `target` may be written: absent, or an earlier folder of this kind.
void check_target(const fs::path& target, const FreshFolder::Rules& rules) {
  const std::string name = rules.option + " " + quoted(target);
  struct stat st {};
  if (::lstat(target.c_str(), &st) != 0) {
    if (errno == ENOENT) return;
    if (errno == ENOTDIR) throw OutputPathError(name + ": a part of the path is not a folder");
    throw FileWriteError(name + ": cannot look at it: " + error_text(errno));
  }
  if (S_ISLNK(st.st_mode))
    throw OutputPathError(name + " is a symbolic link: gridfuzz writes no folder through a link (name the folder itself)");
  if (!S_ISDIR(st.st_mode)) throw OutputPathError(name + " exists and is not a folder");
  check_earlier_folder(target, rules);
}

}  // namespace

FreshFolder::FreshFolder(fs::path target, Rules rules) : target_(without_trailing_slash(target)), rules_(std::move(rules)) {
  const std::string name = rules_.option + " " + quoted(target_);
  const std::string base = target_.filename().string();
  if (target_.empty() || base.empty() || base == "." || base == "..")
    throw OutputPathError(name + ": name the folder itself (not '.', '..' or '/'): it is written whole");
  std::error_code ec;
  const fs::path resolved = fs::weakly_canonical(target_, ec);
  if (!ec)
    for (const auto& [label, input] : rules_.inputs) {
      std::error_code ec2;
      const fs::path in = fs::weakly_canonical(input, ec2);
      if (!ec2 && is_within(in, resolved))
        throw OutputPathError(name + " holds " + label + " " + quoted(input) +
                              ": the folder is replaced whole, so it may not hold an input of the command");
    }
  check_target(target_, rules_);
  const fs::path parent = folder_of(target_);
  fs::create_directories(parent, ec);
  if (ec) {
    if (ec == std::errc::not_a_directory || ec == std::errc::file_exists)
      throw OutputPathError(name + ": a part of the path is not a folder");
    throw FileWriteError(name + ": cannot create the folder " + quoted(parent) + ": " + ec.message());
  }
  std::string pattern = (parent / (temporary_prefix(base) + "XXXXXX")).string();
  if (!::mkdtemp(pattern.data()))  // mode 0700: no one else can put anything in it
    throw FileWriteError(name + ": cannot create a folder in " + quoted(parent) + ": " + error_text(errno));
  staging_ = pattern;
  try {
    write_output_file(OutputFile{staging_ / rules_.marker, rules_.option, "", {}, {}, true}, rules_.marker_text);
  } catch (...) {
    fs::remove_all(staging_, ec);
    throw;
  }
}

FreshFolder::~FreshFolder() {
  if (committed_ || staging_.empty()) return;
  std::error_code ec;
  fs::remove_all(staging_, ec);  // ours alone (mode 0700): nothing of anyone else's is in it
}

std::vector<std::string> FreshFolder::commit() {
  const std::string name = rules_.option + " " + quoted(target_);
  std::vector<std::string> notes;
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (::chmod(staging_.c_str(), 0777 & ~mask) != 0)
    throw FileWriteError(name + ": cannot set the permissions of " + quoted(staging_) + ": " + error_text(errno));
  for (int attempt = 0; attempt < 3; ++attempt) {
    struct stat st {};
    if (::lstat(target_.c_str(), &st) != 0 && errno == ENOENT) {
      int rc = ::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, target_.c_str(), RENAME_NOREPLACE);
      if (rc != 0 && (errno == EINVAL || errno == ENOSYS))
        rc = ::rename(staging_.c_str(), target_.c_str());  // a folder is never renamed over a non-empty one
      if (rc == 0) {
        committed_ = true;
        return notes;
      }
      if (errno == EEXIST || errno == ENOTEMPTY) continue;  // it appeared meanwhile: check it
      throw FileWriteError(name + ": cannot rename " + quoted(staging_) + " to it: " + error_text(errno));
    }
    check_target(target_, rules_);  // again: it may have changed since the start
    // The new folder takes the old one's place in one step; the old one is then at the staging name.
    fs::path old = staging_;
    if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, target_.c_str(), RENAME_EXCHANGE) != 0) {
      if (errno != EINVAL && errno != ENOSYS)
        throw FileWriteError(name + ": cannot put " + quoted(staging_) + " in its place: " + error_text(errno));
      old = staging_.string() + "-old";
      if (::rename(target_.c_str(), old.c_str()) != 0 || ::rename(staging_.c_str(), target_.c_str()) != 0)
        throw FileWriteError(name + ": cannot put " + quoted(staging_) + " in its place: " + error_text(errno));
    }
    committed_ = true;
    if (!remove_known(AT_FDCWD, old.string(), fs::path(), rules_))
      notes.push_back("the earlier " + target_.string() + " is left as " + old.string() +
                      ": it holds files gridfuzz did not write");
    return notes;
  }
  throw OutputPathError(name + " keeps changing while it is written; nothing replaced");
}

}  // namespace gridfuzz
