#include "gridfuzz/engine/executor.hpp"

namespace gridfuzz {

void StaticExecutor::run(const std::vector<Case>& cases, const RecordSink& on_record,
                         const std::function<bool()>& should_stop) {
  for (const Case& c : cases) {
    if (should_stop && should_stop()) return;
    on_record(c, make_record(predict_case(env_.kernel(c.kernel), c, env_.limits), env_.context));
  }
}

}  // namespace gridfuzz
