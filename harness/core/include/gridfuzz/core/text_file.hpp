#pragma once
// Reads an input file (a CSV, a ledger) with a size limit, so that /dev/zero, a FIFO or a huge
// file given by mistake is a clear error instead of reading until memory runs out: whole
// (read_text_file) or in pieces (InputFile, for readers that stream).
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gridfuzz {

// The file cannot be used as input: missing, not a regular file, too large (bad input).
class InputFileError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The system failed to read a file that is itself acceptable (the environment).
class FileReadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// 1 GiB: far above any sweep's CSV (a 315-case sweep writes about 130 KB), far below memory.
constexpr std::uint64_t kMaxInputFileBytes = std::uint64_t{1} << 30;

// The one size check of every read of an input: InputFileError when `bytes` (a file's size, or
// what was read of it so far) is over max_bytes. `name` says which file ("CSV 'x.csv'").
void check_input_size(std::uint64_t bytes, const std::string& name, std::uint64_t max_bytes = kMaxInputFileBytes);

// An input file opened for reading: a regular file (symlinks followed) of at most max_bytes,
// read in pieces so that a reader holds only what it needs. `what` names it in messages.
class InputFile {
 public:
  InputFile(const std::string& path, const std::string& what, std::uint64_t max_bytes = kMaxInputFileBytes);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  // Up to `size` bytes into `buffer`; 0 at the end. FileReadError for a read error,
  // InputFileError when the file grew past max_bytes while it was read.
  std::size_t read(char* buffer, std::size_t size);
  // Reads on from byte `offset` (a reader going back to a row it read before). FileReadError when
  // the system refuses.
  void seek(std::uint64_t offset);
  // "CSV 'x.csv'".
  const std::string& name() const noexcept { return name_; }
  // Its size when it was opened.
  std::uint64_t size() const noexcept { return size_; }

 private:
  std::string name_;
  std::uint64_t max_bytes_;
  std::uint64_t size_ = 0, read_ = 0;
  int fd_ = -1;
};

// The file's bytes, read through InputFile.
std::string read_text_file(const std::string& path, const std::string& what,
                           std::uint64_t max_bytes = kMaxInputFileBytes);

}  // namespace gridfuzz
