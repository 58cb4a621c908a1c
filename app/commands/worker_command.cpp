// `gridfuzz worker` (internal): the process a worker pool starts, one per GPU. It builds the
// environment once (the session: kernels, limits, ledger, run context) and hands the pipe to the
// engine's serve_worker. It exits after a sticky fault so the parent starts a fresh process.
#include <unistd.h>

#include <cstdio>

#include "gridfuzz/app/commands.hpp"
#include "gridfuzz/app/session.hpp"
#include "gridfuzz/engine/worker_server.hpp"

namespace gridfuzz::app {

Runner add_worker_command(CLI::App& app, const GlobalOptions& global) {
  auto engine = std::make_shared<EngineOptions>();
  auto* cmd = app.add_subcommand("worker", "internal: run cases from stdin in an isolated process");
  cmd->group("");  // hidden from --help
  add_engine_options(*cmd, *engine);
  return [engine, &global]() -> int {
    // The protocol gets the original stdout; anything else printed goes to stderr.
    std::FILE* proto = fdopen(dup(STDOUT_FILENO), "w");
    if (proto == nullptr) return kEnvironment;
    dup2(STDERR_FILENO, STDOUT_FILENO);
    const Session session(global, *engine);
    const int ordinal = global.device.device.value_or(0);
    const WorkerExit exit = serve_worker(session.environment(), ordinal, run_options(*engine), stdin, proto);
    return exit == WorkerExit::pipe_closed ? kEnvironment : kOk;
  };
}

}  // namespace gridfuzz::app
