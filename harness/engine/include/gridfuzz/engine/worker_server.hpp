#pragma once
// The worker's end of the pipe (worker_client.hpp is the parent's end): a worker process serves
// the cases its parent sends, one record reply each, on the device it was started for.
#include <cstdio>

#include "gridfuzz/engine/environment.hpp"
#include "gridfuzz/engine/runner.hpp"

namespace gridfuzz {

enum class WorkerExit {
  input_closed,  // the parent closed the request pipe: done
  pipe_closed,   // a reply could not be written (the parent is gone)
  context_lost,  // a sticky fault poisoned the context: the parent starts a fresh worker
};

// Retains device `ordinal`'s primary context, then reads "CASE" requests from `in` and runs each
// with the runner against `env` (built once, by the caller), writing its record to `out`. Throws
// std::invalid_argument for a request that is no replay string.
WorkerExit serve_worker(const Environment& env, int ordinal, const RunOptions& options, std::FILE* in, std::FILE* out);

}  // namespace gridfuzz
