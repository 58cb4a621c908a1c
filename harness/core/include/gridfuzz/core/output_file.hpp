#pragma once
// Every file gridfuzz writes is created here (docs/RELIABILITY.md, "Files gridfuzz writes"), so
// that no output follows a link someone planted, replaces a file that is not gridfuzz's, or
// stands half-written at its path:
// - create_new_file: the one place a file is created, O_CREAT|O_EXCL|O_NOFOLLOW (never over a
//   file, never through a link);
// - write_output_file: an output named by an option (--junit F, --markdown F, ...), written to a
//   temporary file beside it and renamed into place, and only over nothing, an empty file or a
//   file of the kind gridfuzz writes there; never over an input of the command;
// - FreshFolder: a folder written whole (report --out DIR) in a private temporary sibling, then
//   renamed into place.
#include <fcntl.h>
#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gridfuzz {

// The output cannot be written as asked (a link, a folder, an input of the command, a file
// gridfuzz did not write, a folder that does not exist): bad input (exit 2), nothing changed.
class OutputPathError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The system failed to create or write an output that is itself acceptable (permission denied, a
// read-only or full disk, an I/O error): the environment (exit 3). Nothing half-written is left
// at the output's path.
class FileWriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Opens a new file for writing: open(2) with O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC|O_NOCTTY,
// `flags` (O_WRONLY, or O_RDWR|O_APPEND, ...) added, mode 0666 less the umask. Never opens a file
// that exists or a link (EEXIST). Returns the descriptor, or -1 with errno set.
int create_new_file(const std::filesystem::path& path, int flags = O_WRONLY);

// What the bytes read from the start of an existing file must look like for gridfuzz to replace
// it: the first kOutputHeadBytes bytes (fewer when the file is shorter).
inline constexpr std::size_t kOutputHeadBytes = 4096;

// An output file and the rules for its path.
struct OutputFile {
  std::filesystem::path path;
  std::string option;  // names it in messages: "--junit"
  std::string kind;    // what gridfuzz writes there, for messages: "a JUnit XML file"
  // An existing non-empty regular file at the path is replaced only when this recognises its
  // first bytes as what gridfuzz writes there. Unset: an existing file is never replaced.
  std::function<bool(std::string_view head)> is_ours;
  // The command's inputs (what names them, their path): the output is never one of them, by
  // device and inode or by resolved path.
  std::vector<std::pair<std::string, std::filesystem::path>> inputs;
  // Write into a folder gridfuzz owns (FreshFolder's): the file must not exist and is created
  // in place with create_new_file (no temporary file, no fsync).
  bool must_be_new = false;
};

// Whether two paths name the same file: the same device and inode (links followed), or the same
// path once resolved (for a file that does not exist yet). The rule "an output never names an
// input of its command" compares with it.
bool is_same_file(const std::filesystem::path& a, const std::filesystem::path& b);

// Checks the output's path without writing: the checks write_output_file makes first, so that a
// command refuses a bad output before it does its work. Throws OutputPathError or FileWriteError.
void check_output_file(const OutputFile& out);

// Writes `bytes` as the output file. Its path may be:
// - absent, or an empty or recognised (is_ours) regular file: the bytes go to a new temporary file
//   in the same folder (create_new_file), which is synced and renamed over the path (over an
//   absent one only with RENAME_NOREPLACE: a file that appears meanwhile is not replaced);
// - a character device or a FIFO (/dev/null, /dev/stdout, a pipe), also through a link: written
//   in place;
// - anything else (a link to a file, a folder, a socket, an input of the command, a file of
//   another kind) is refused with OutputPathError, before anything is written.
// A failed write, sync, close or rename is FileWriteError (exit 3).
void write_output_file(const OutputFile& out, std::string_view bytes);

// A new file in a folder gridfuzz owns (OutputFile::must_be_new), written in pieces: an output too
// large to build in memory first (a report's junit.xml of a large CSV). The same checks and
// errors as write_output_file; what is written is buffered and close() reports the last write.
class NewOutputFile {
 public:
  explicit NewOutputFile(OutputFile out);  // throws OutputPathError, FileWriteError
  ~NewOutputFile();
  NewOutputFile(const NewOutputFile&) = delete;
  NewOutputFile& operator=(const NewOutputFile&) = delete;
  void write(std::string_view bytes);
  void close();

 private:
  void flush();
  OutputFile out_;
  std::string name_;  // "--out 'path'"
  int fd_ = -1;
  std::string buffer_;
};

// A folder written whole (report --out DIR). Its contents go to a private staging folder beside
// it (mode 0700, named .<name>.gridfuzz-XXXXXX, holding the marker file first), which commit()
// renames to the target. The target must be absent, an empty folder, or a folder of this kind
// gridfuzz wrote earlier (the marker in it, and only entries `known` says it writes there); an
// earlier one is replaced as a whole and then deleted, entry by known entry.
class FreshFolder {
 public:
  struct Rules {
    std::string option;       // "--out"
    std::string marker;       // the file name that says gridfuzz wrote the folder: ".gridfuzz-report"
    std::string marker_text;  // what the marker file holds
    // Whether an entry of an earlier folder (its path relative to the folder; a folder or not)
    // is one gridfuzz writes there. The marker is always known.
    std::function<bool(const std::filesystem::path& relative, bool is_folder)> known;
    // The command's inputs (what names them, their path): none may be inside the folder.
    std::vector<std::pair<std::string, std::filesystem::path>> inputs;
  };

  // Checks the target and makes the staging folder (and the target's missing parent folders).
  // Throws OutputPathError or FileWriteError.
  FreshFolder(std::filesystem::path target, Rules rules);
  ~FreshFolder();  // removes the staging folder unless commit() put it in place
  FreshFolder(const FreshFolder&) = delete;
  FreshFolder& operator=(const FreshFolder&) = delete;

  // Where the contents are written until commit().
  const std::filesystem::path& staging() const noexcept { return staging_; }
  // The folder's path once in place.
  const std::filesystem::path& target() const noexcept { return target_; }

  // Gives the folder the usual permissions (0777 less the umask) and renames it to the target.
  // Returns notes (an earlier folder that could not be deleted whole is left, named).
  std::vector<std::string> commit();

 private:
  std::filesystem::path target_, staging_;
  Rules rules_;
  bool committed_ = false;
};

}  // namespace gridfuzz
