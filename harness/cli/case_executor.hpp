#pragma once
// What runs a batch of cases for a sweep: the session (worker processes, one per GPU, or the
// model alone without a GPU) or, in tests, a stand-in that simulates several devices.
#include <functional>
#include <vector>

#include "gridfuzz/case.hpp"
#include "gridfuzz/reports/csv_row.hpp"

namespace gridfuzz::cli {

class CaseExecutor {
 public:
  virtual ~CaseExecutor() = default;
  // Runs the cases, calling `on_row` once per finished case, one call at a time, in completion
  // order (which need not be input order). Once `should_stop()` is true no further case starts;
  // the ones not started get no row. An exception from `on_row` stops the batch and reaches the
  // caller.
  virtual void run(const std::vector<Case>& cases,
                   const std::function<void(const Case&, const reports::CsvRow&)>& on_row,
                   const std::function<bool()>& should_stop) = 0;
};

}  // namespace gridfuzz::cli
