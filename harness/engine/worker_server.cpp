#include "gridfuzz/engine/worker_server.hpp"

#include "gridfuzz/device/context.hpp"
#include "gridfuzz/engine/worker_protocol.hpp"

namespace gridfuzz {

WorkerExit serve_worker(const Environment& env, int ordinal, const RunOptions& options, std::FILE* in, std::FILE* out) {
  device::PrimaryContext ctx(ordinal);
  RunContext context = env.context;
  context.device_index = ordinal;
  SharedReference kept;  // a split reference left for the next case of the same shape
  while (auto request = read_case_request(in)) {
    const Case c = Case::parse_replay(request->replay);
    ReferenceReuse reuse{kept, request->keep_reference};
    const CaseRecord record =
        make_record(run_case(env.kernel(c.kernel), c, env.limits, options, env.ledger,
                             options.share_reference ? &reuse : nullptr),
                    context);
    if (!write_record_reply(out, record)) return WorkerExit::pipe_closed;
    if (record.context_lost) return WorkerExit::context_lost;
  }
  return WorkerExit::input_closed;
}

}  // namespace gridfuzz
