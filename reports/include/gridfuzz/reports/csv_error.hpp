#pragma once
// The one error type of the CSV layer: a file that is not a readable gridfuzz CSV of this
// schema's major version, or a row a writer refuses. The message says where ("path:line: ...").
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

 private:
  std::size_t line_;
};

}  // namespace gridfuzz::reports
