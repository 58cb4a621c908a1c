#pragma once
// The error type of the CSV layer: a file that is not a readable gridfuzz CSV of this schema's
// major version, a path a writer may not use, or a row a writer refuses: bad input (exit 2).
// CsvIoError is the environment failing (a read or write error, a full disk: exit 3). The
// message says where ("path:line: ...").
#include <cstddef>
#include <stdexcept>
#include <string>

namespace gridfuzz::reports {

class CsvError : public std::runtime_error {
 public:
  explicit CsvError(const std::string& message, std::size_t line = 0)
      : std::runtime_error(message), line_(line) {}

  // 1-based physical line the error is about; 0 when it is about no single line.
  std::size_t line() const noexcept { return line_; }
  // True for a CsvIoError (the environment), false for bad input.
  virtual bool is_io() const noexcept { return false; }

 private:
  std::size_t line_;
};

// The system failed a read or a write of a file that is itself acceptable.
class CsvIoError : public CsvError {
 public:
  using CsvError::CsvError;
  bool is_io() const noexcept override { return true; }
};

}  // namespace gridfuzz::reports
