#pragma once
// Where finished records go: a CSV file, the console, a test's list. The engine produces records;
// reporters (app/reporters) turn them into text. The engine knows no output format.
#include "gridfuzz/engine/case_record.hpp"

namespace gridfuzz {

class Reporter {
 public:
  virtual ~Reporter() = default;
  // Called once per record, in the order the records finish. An exception stops the run.
  virtual void report(const CaseRecord& record) = 0;
};

}  // namespace gridfuzz
