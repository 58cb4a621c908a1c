#pragma once
// Reads a whole input file (a CSV, a ledger) with a size limit, so that /dev/zero, a FIFO or a
// huge file given by mistake is a clear error instead of reading until memory runs out.
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

// The file's bytes. `what` names it in messages ("the ledger", "CSV"). Follows symlinks; refuses
// anything that is not a regular file, or one larger than max_bytes.
std::string read_text_file(const std::string& path, const std::string& what,
                           std::uint64_t max_bytes = kMaxInputFileBytes);

}  // namespace gridfuzz
