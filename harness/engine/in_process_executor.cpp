#include "gridfuzz/device/context.hpp"
#include "gridfuzz/engine/executor.hpp"

namespace gridfuzz {

void InProcessExecutor::run(const std::vector<Case>& cases, const RecordSink& on_record,
                            const std::function<bool()>& should_stop) {
  // A worker makes its device's context current before its cases; so must this path, or the
  // first driver call fails with CUDA_ERROR_INVALID_CONTEXT.
  const device::PrimaryContext context(device_);
  for (const Case& c : cases) {
    if (should_stop && should_stop()) return;
    on_record(c, make_record(run_case(env_.kernel(c.kernel), c, env_.limits, options_, env_.ledger), env_.context));
  }
}

}  // namespace gridfuzz
