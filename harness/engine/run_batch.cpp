#include "gridfuzz/engine/run_batch.hpp"

#include <atomic>

namespace gridfuzz {

BatchResult run_batch(Executor& executor, const std::vector<Case>& cases, const RecordSink& on_record,
                      std::size_t max_failures) {
  BatchResult result;
  // Read by the executor's workers (should_stop) while the reporting thread counts.
  std::atomic<std::size_t> failures{0};
  const auto limit_reached = [&] { return max_failures > 0 && failures.load() >= max_failures; };
  executor.run(cases, [&](const Case& c, const CaseRecord& record) {
    ++result.ran;
    if (record.verdict.fails_run()) ++failures;
    on_record(c, record);
  }, limit_reached);
  result.failures = failures.load();
  result.stopped = limit_reached() && result.ran < cases.size();
  return result;
}

}  // namespace gridfuzz
