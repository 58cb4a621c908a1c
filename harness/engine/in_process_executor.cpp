#include "gridfuzz/device/context.hpp"
#include "gridfuzz/engine/executor.hpp"
#include "gridfuzz/engine/shared_reference.hpp"

namespace gridfuzz {

void InProcessExecutor::run(const std::vector<Case>& cases, const RecordSink& on_record,
                            const std::function<bool()>& should_stop) {
  // A worker makes its device's context current before its cases; so must this path, or the
  // first driver call fails with CUDA_ERROR_INVALID_CONTEXT.
  const device::PrimaryContext context(device_);
  // As a worker does: a shape's variants back to back, sharing the split reference where they may.
  const std::vector<std::size_t> order = reference_group_order(cases);
  SharedReference kept;
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (should_stop && should_stop()) return;
    const Case& c = cases[order[k]];
    ReferenceReuse reuse{kept, k + 1 < order.size() && reference_group_key(cases[order[k + 1]]) == reference_group_key(c)};
    on_record(c, make_record(run_case(env_.kernel(c.kernel), c, env_.limits, options_, env_.ledger,
                                      options_.share_reference ? &reuse : nullptr),
                             env_.context));
  }
}

}  // namespace gridfuzz
