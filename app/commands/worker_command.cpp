// `gridfuzz worker` (internal): runs cases sent by the parent over stdin, one reply each on the
// protocol pipe. Exits after a sticky fault so the parent starts a fresh process (and context).
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "gridfuzz/app/commands.hpp"
#include "gridfuzz/device/context.hpp"
#include "gridfuzz/engine/worker_protocol.hpp"
#include "gridfuzz/app/session.hpp"

namespace gridfuzz::app {

Runner add_worker_command(CLI::App& app, const GlobalOptions& global) {
  auto engine = std::make_shared<EngineOptions>();
  auto* cmd = app.add_subcommand("worker", "internal: run cases from stdin in an isolated process");
  cmd->group("");  // hidden from --help
  add_engine_options(*cmd, *engine);
  return [engine, &global]() -> int {
    // The protocol gets the original stdout; anything else printed goes to stderr.
    std::FILE* proto = fdopen(dup(STDOUT_FILENO), "w");
    dup2(STDERR_FILENO, STDOUT_FILENO);
    const SelectedLimits sel = select_limits(global.device);
    const int ordinal = global.device.device.value_or(0);
    device::PrimaryContext ctx(ordinal);
    const Session session(global, *engine);  // kernels, ledger, run context (device, driver, commit)
    const RunOptions options = run_options(*engine);
    while (auto request = read_case_request(stdin)) {
      const Case c = Case::parse_replay(*request);
      RunContext context = session.context();
      context.device_index = ordinal;
      const CaseRecord record =
          make_record(run_case(session.kernel(c.kernel), c, sel.limits, options, session.ledger()), context);
      if (!write_record_reply(proto, record)) return kEnvironment;
      if (record.context_lost) return kOk;  // the context is poisoned: let the parent start a new worker
    }
    return kOk;
  };
}

}  // namespace gridfuzz::app
