// A stand-in worker speaking the real protocol, for testing the parent's fault handling with real
// processes: the case's variant says what to do.
//   reply: answer with a record   crash: SIGSEGV   abort: abort()   hang: never answer
//   reply-then-exit: answer, then exit (like a worker after a sticky fault)
//   slow: answer after 1 s      oom: a record observed out of memory   crash-once: crash unless the file named by the case's params
//   (marker=PATH) exists, which it creates first (a worker killed from outside, once)
//   fault: a record of fail:fault   fault-once: fail:fault unless marker=PATH exists, which it
//   creates first (a fault that reached the case from beside it)
//   expected-finding: an expected-fail naming a ledger finding, the call made (wrong values)
// argv[1], when given, is the device the worker serves; it comes back as the record's device_index.
// A request's keep-reference flag comes back as the record's driver ("keep-reference").
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>

#include "gridfuzz/core/case.hpp"
#include "gridfuzz/engine/worker_protocol.hpp"

#include <fstream>
#include <thread>

int main(int argc, char** argv) {
  while (auto request = gridfuzz::read_case_request(stdin)) {
    const gridfuzz::Case c = gridfuzz::Case::parse_replay(request->replay);
    if (c.variant == "crash" || c.variant == "abort") {
      // Die by the signal itself, as a crashing worker does, also in the sanitizer build (whose
      // handlers would otherwise turn it into a report and exit 1).
      const int sig = c.variant == "crash" ? SIGSEGV : SIGABRT;
      std::signal(sig, SIG_DFL);
      std::raise(sig);
    }
    if (c.variant == "crash-once") {
      const std::string marker = c.params.get("marker");
      if (!std::ifstream(marker)) {
        std::ofstream(marker) << "crashed once\n";
        std::raise(SIGKILL);
      }
    }
    bool fault = c.variant == "fault";
    if (c.variant == "fault-once") {
      const std::string marker = c.params.get("marker");
      fault = !std::ifstream(marker);
      if (fault) std::ofstream(marker) << "faulted once\n";
    }
    if (c.variant == "slow") std::this_thread::sleep_for(std::chrono::seconds(1));
    if (c.variant == "hang")
      for (;;) pause();
    gridfuzz::CaseRecord record;
    record.the_case = c;
    record.verdict = gridfuzz::Verdict::of(gridfuzz::Verdict::Kind::pass);
    record.detail = "multi\nline, \"quoted\"";
    record.context.run_id = std::to_string(getpid());
    if (argc > 1) record.context.device_index = std::atoi(argv[1]);
    // The request's keep-reference flag, for the tests to see (a real worker has a driver here).
    record.context.driver = request->keep_reference ? "keep-reference" : "";
    record.context_lost = c.variant == "reply-then-exit";
    if (c.variant == "oom") record.observed = {gridfuzz::Observed::Kind::oom, ""};
    if (c.variant == "oom" || fault) record.verdict = gridfuzz::Verdict::failed(gridfuzz::FailureKind::fault);
    if (c.variant == "expected-finding") {
      record.observed = {gridfuzz::Observed::Kind::accept, ""};
      record.verdict = gridfuzz::Verdict::of(gridfuzz::Verdict::Kind::expected_fail);
      record.finding = "fake.md#finding-1";
    }
    gridfuzz::write_record_reply(stdout, record);
    if (c.variant == "reply-then-exit") return 0;
  }
  return 0;
}
