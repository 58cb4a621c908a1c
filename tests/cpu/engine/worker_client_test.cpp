// Worker isolation with real processes: a crash, an abort and a hang each become a reply for that
// case, the worker is restarted, and the next case runs.
#include <gtest/gtest.h>

#include <chrono>

#include "gridfuzz/engine/worker_client.hpp"

using gridfuzz::WorkerClient;
using gridfuzz::WorkerReply;

namespace {

WorkerClient make_client(double timeout_s = 10) { return WorkerClient({FAKE_WORKER}, timeout_s); }

std::string replay(const std::string& variant, int n = 1) { return "fake/" + variant + "/1/n=" + std::to_string(n); }

}  // namespace

TEST(WorkerClient, RecordsComeBackIntactIncludingNewlinesAndQuotes) {
  auto w = make_client();
  const WorkerReply r = w.run(replay("reply"));
  ASSERT_EQ(r.status, WorkerReply::Status::record) << r.reason;
  EXPECT_EQ(r.record.the_case.replay(), replay("reply"));
  EXPECT_EQ(r.record.detail, "multi\nline, \"quoted\"");
  // The same process serves the next case.
  const WorkerReply r2 = w.run(replay("reply", 2));
  EXPECT_EQ(r2.record.context.run_id, r.record.context.run_id);
  EXPECT_EQ(w.restarts(), 0);
}

TEST(WorkerClient, CrashIsReportedAndTheNextCaseRunsInANewWorker) {
  auto w = make_client();
  const WorkerReply first = w.run(replay("reply"));
  const WorkerReply crash = w.run(replay("crash"));
  EXPECT_EQ(crash.status, WorkerReply::Status::crashed);
  EXPECT_NE(crash.reason.find("signal 11"), std::string::npos) << crash.reason;
  const WorkerReply after = w.run(replay("reply", 3));
  ASSERT_EQ(after.status, WorkerReply::Status::record);
  EXPECT_NE(after.record.context.run_id, first.record.context.run_id);  // a different process
  EXPECT_EQ(w.restarts(), 1);
}

TEST(WorkerClient, AbortIsReported) {
  auto w = make_client();
  const WorkerReply r = w.run(replay("abort"));
  EXPECT_EQ(r.status, WorkerReply::Status::crashed);
  EXPECT_NE(r.reason.find("signal 6"), std::string::npos) << r.reason;
  EXPECT_EQ(w.run(replay("reply")).status, WorkerReply::Status::record);
}

TEST(WorkerClient, HangIsKilledAtTheTimeout) {
  auto w = make_client(1.0);
  const auto t0 = std::chrono::steady_clock::now();
  const WorkerReply r = w.run(replay("hang"));
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.status, WorkerReply::Status::timed_out);
  EXPECT_GE(waited, 0.9);
  EXPECT_LT(waited, 5.0);
  EXPECT_EQ(w.run(replay("reply")).status, WorkerReply::Status::record);
}

TEST(WorkerClient, WorkerThatExitsAfterAStickyFaultIsReplacedBeforeTheNextCase) {
  auto w = make_client();
  ASSERT_EQ(w.run(replay("reply-then-exit")).status, WorkerReply::Status::record);
  const WorkerReply r = w.run(replay("reply", 4));
  ASSERT_EQ(r.status, WorkerReply::Status::record) << r.reason;
  EXPECT_EQ(r.record.the_case.replay(), replay("reply", 4));
}

TEST(WorkerClient, MissingExecutableIsACrashNotAParentDeath) {
  WorkerClient w({"/nonexistent/gridfuzz-worker"}, 5);
  const WorkerReply r = w.run(replay("reply"));
  EXPECT_EQ(r.status, WorkerReply::Status::crashed);
  EXPECT_NE(r.reason.find("exit 127"), std::string::npos) << r.reason;
}
