#pragma once
// Records appended to a gridfuzz CSV (reports/SCHEMA.md), one row each, as they finish.
#include <filesystem>

#include "gridfuzz/engine/reporter.hpp"
#include "gridfuzz/reports/csv_writer.hpp"

namespace gridfuzz::reporters {

class CsvReporter final : public Reporter {
 public:
  // Opens (or creates, or sets aside: options) the file; throws reports::CsvError/CsvIoError.
  explicit CsvReporter(std::filesystem::path path, const reports::CsvWriterOptions& options = {})
      : writer_(std::move(path), options) {}
  void report(const CaseRecord& record) override;
  const reports::CsvWriter& writer() const { return writer_; }

 private:
  reports::CsvWriter writer_;
};

}  // namespace gridfuzz::reporters
