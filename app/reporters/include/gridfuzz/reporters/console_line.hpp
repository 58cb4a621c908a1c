#pragma once
// A record as one line for the console: kernel, variant, predicted, observed, verdict, time, replay.
#include <ostream>
#include <string>

#include "gridfuzz/engine/reporter.hpp"

namespace gridfuzz::reporters {

std::string console_line(const CaseRecord& record);

// One console line per record, on `out`, flushed (a long run shows its progress).
class ConsoleReporter final : public Reporter {
 public:
  explicit ConsoleReporter(std::ostream& out) : out_(out) {}
  void report(const CaseRecord& record) override;

 private:
  std::ostream& out_;
};

}  // namespace gridfuzz::reporters
