#pragma once
// One batch of cases through an executor with a limit on failures (`--maxfail N` of run and
// replay): once N records fail the run, no further case starts; the ones in flight still finish
// and are reported, so every row written is kept.
#include <cstddef>
#include <vector>

#include "gridfuzz/engine/executor.hpp"

namespace gridfuzz {

struct BatchResult {
  std::size_t ran = 0;       // records reported
  std::size_t failures = 0;  // of them, those whose verdict fails the run
  bool stopped = false;      // the limit was reached with cases left unstarted
};

// Runs `cases`, handing each record to `on_record` (one call at a time). `max_failures` 0: no limit.
BatchResult run_batch(Executor& executor, const std::vector<Case>& cases, const RecordSink& on_record,
                      std::size_t max_failures);

}  // namespace gridfuzz
