// The typed record a case ends as: its outcome vocabulary (Observed, OracleResult), the codec that
// carries it over the worker pipe, and the CSV row the reporter makes of it.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "gridfuzz/engine/case_record.hpp"
#include "gridfuzz/device_limits.hpp"
#include "gridfuzz/engine/record_codec.hpp"
#include "gridfuzz/reporters/console_line.hpp"
#include "gridfuzz/reporters/record_row.hpp"
#include "gridfuzz/engine/worker_protocol.hpp"
#include "gridfuzz/app/session.hpp"

namespace gridfuzz {
namespace {

// A record made by the engine from a real plan (moe_vec legacy at 8192 tokens x top_k 8: grid.z
// 65536 is refused), with every field that can be set given a value that is not its default.
CaseRecord sample_record() {
  const DeviceLimits limits = *device_preset("sm_90");
  const Kernel& k = *app::builtin_registry().find("gguf.moe_vec");
  Params p = Params::defaults(k.axes());
  p.set("tokens", "8192");
  p.set("top_k", "8");
  const CaseResult result = predict_case(k, Case{k.name(), "legacy", p, 7}, limits);
  CaseRecord r = make_record(result, RunContext{"run-1", "NVIDIA H200", "9.0", "13.0", "abc", 3, "580.159.04"});
  r.observed = {Observed::Kind::refuse, "CUDA_ERROR_INVALID_VALUE"};
  r.oracle = {OracleResult::Kind::compared, "", false, 12, 0.1 + 0.2, 3, 250, 256};
  r.verdict = Verdict::failed(FailureKind::mismatch);
  r.detail = "line one\nline two, \"quoted\" \x1b[31m";
  r.timing = {0.123456789, 0.1, 1.0 / 3.0, 10, 4321.5, 0.11, 0.1, 0.2, 10, 3};
  // In the order taken, not sorted; floats whose shortest text is long (1/3) or exact (0.125).
  r.timing.samples_ms = {0.2f, 0.1f, 1.0f / 3.0f, 0.125f, 0.123f, 0.15f, 0.11f, 0.3f, 0.12f, 0.13f};
  r.phases = {0.25, 1.5, 2.0 / 3.0, 0.125, 7.0, 0.5, 12.75, 0, 25.0 + 1e-9, 140.5};
  r.context_lost = true;
  r.finding = "vllm-gguf.md#finding-5";
  r.started_unix_ms = 1796038765731;
  return r;
}

void expect_same(const CaseRecord& a, const CaseRecord& b) {
  EXPECT_EQ(a.the_case, b.the_case);
  EXPECT_EQ(a.context, b.context);
  EXPECT_EQ(a.plan, b.plan);
  EXPECT_EQ(a.observed, b.observed);
  EXPECT_EQ(a.oracle, b.oracle);
  EXPECT_EQ(a.verdict, b.verdict);
  EXPECT_EQ(a.detail, b.detail);
  EXPECT_EQ(a.timing, b.timing);
  EXPECT_EQ(a.phases, b.phases);
  EXPECT_EQ(a.context_lost, b.context_lost);
  EXPECT_EQ(a.finding, b.finding);
  EXPECT_EQ(a.started_unix_ms, b.started_unix_ms);
}

TEST(CaseRecord, KeepsThePlansRefusedLaunchAndRiskiestIndex) {
  const CaseRecord r = sample_record();
  EXPECT_EQ(r.plan.predicted, PredictedOutcome::refuse(Rule::grid_z));
  ASSERT_TRUE(r.plan.launch.has_value());
  EXPECT_EQ(r.plan.launch->grid.z, 65536u);  // the refused launch, not the largest
  EXPECT_TRUE(r.plan.max_index.has_value());
  EXPECT_TRUE(r.plan.index_type.has_value());
}

// A static row is judged by the same verdict path as a case that ran (conclude): `static`, with
// the ledger's expectations left out of it, and the CSV's text as before.
TEST(CaseRecord, StaticRowsAreJudgedStatic) {
  const DeviceLimits limits = *device_preset("sm_90");
  const Kernel& k = *app::builtin_registry().find("gguf.moe_vec");
  for (const char* tokens : {"1", "8192"}) {
    Params p = Params::defaults(k.axes());
    p.set("tokens", tokens);
    const CaseResult result = predict_case(k, Case{k.name(), "legacy", p, 7}, limits);
    EXPECT_EQ(result.observed, (Observed{Observed::Kind::static_only, ""})) << tokens;
    EXPECT_EQ(result.verdict, Verdict::of(Verdict::Kind::static_only)) << tokens;
    const reports::CsvRow row = reporters::to_row(make_record(result, RunContext{"run-1", "sm_90", "9.0", "", "", {}}));
    EXPECT_EQ(row.get("observed"), "static");
    EXPECT_EQ(row.get("verdict"), "static");
    EXPECT_EQ(row.get("seed"), "");
  }
}

TEST(RecordCodec, RoundTripsEveryFieldExactly) {
  const CaseRecord r = sample_record();
  expect_same(decode_record(encode_record(r)), r);
  CaseRecord bare;  // no launch, no index, no device: the optional fields stay absent
  bare.the_case = Case{"k", "v", Params(), 1};
  const CaseRecord back = decode_record(encode_record(bare));
  expect_same(back, bare);
  EXPECT_FALSE(back.plan.launch.has_value());
  EXPECT_FALSE(back.context.device_index.has_value());
}

TEST(RecordCodec, RefusesWhatIsNoRecord) {
  const std::string good = encode_record(sample_record());
  EXPECT_THROW(decode_record(good.substr(0, good.size() - 3)), std::runtime_error);  // cut short
  EXPECT_THROW(decode_record(good + good), std::runtime_error);                      // fields twice
  std::string bad_verdict = good;
  const std::string v = "verdict 13\nfail:mismatch";
  bad_verdict.replace(bad_verdict.find(v), v.size(), "verdict 13\nnot-a-verdic");
  EXPECT_THROW(decode_record(bad_verdict), std::runtime_error);
  EXPECT_THROW(decode_record("case 3\nabc"), std::runtime_error);  // not a replay, fields missing
}

// The samples cross the pipe as they were taken; a count that is not `samples` is no record.
TEST(RecordCodec, CarriesTheSamplesInTheirOrder) {
  const CaseRecord r = sample_record();
  const CaseRecord back = decode_record(encode_record(r));
  EXPECT_EQ(back.timing.samples_ms, r.timing.samples_ms);
  CaseRecord short_one = r;
  short_one.timing.samples_ms.pop_back();
  EXPECT_THROW(decode_record(encode_record(short_one)), std::runtime_error);
}

TEST(WorkerProtocol, AReplyArrivesWholeWhateverTheChunks) {
  const CaseRecord r = sample_record();
  std::string wire = "RECORD " + std::to_string(encode_record(r).size()) + "\n" + encode_record(r);
  ReplyParser parser;
  std::size_t fed = 0;
  bool done = false;
  for (; fed < wire.size() && !done; ++fed) done = parser.feed(&wire[fed], 1);
  EXPECT_TRUE(done);
  EXPECT_EQ(fed, wire.size()) << "the parser finished before the last byte";
  expect_same(parser.record(), r);
  ReplyParser other;
  EXPECT_THROW(other.feed("ROW\n", 4), std::runtime_error);
}

TEST(Observed, TextRoundTripsForEveryKind) {
  for (const char* text : {"accept", "refuse:CUDA_ERROR_INVALID_VALUE", "fault:worker-signal 11", "timeout",
                           "host-error:count <= 0", "oom", "skipped:over-budget", "static"}) {
    const auto o = Observed::parse(text);
    ASSERT_TRUE(o.has_value()) << text;
    EXPECT_EQ(o->to_string(), text);
  }
  EXPECT_EQ(Observed::parse("fault:worker-signal 11")->reason, "worker-signal 11");
  EXPECT_FALSE(Observed::parse("accepted").has_value());
  EXPECT_FALSE(Observed::parse("").has_value());
}

// The self-check's count crosses the worker pipe as made: absent (no self-check), 0 (the two calls
// agree) or the elements that differ; the row's oracle text and the console line show it.
TEST(RecordCodec, CarriesTheSelfCheck) {
  CaseRecord r = sample_record();
  EXPECT_EQ(decode_record(encode_record(r)).oracle.self_differ, std::nullopt);
  EXPECT_EQ(reporters::console_line(r).find("self:"), std::string::npos) << reporters::console_line(r);
  for (const std::uint64_t differ : {std::uint64_t{0}, std::uint64_t{24}}) {
    r.oracle.self_differ = differ;
    r.verdict = differ ? Verdict::failed(FailureKind::nondeterministic) : Verdict::failed(FailureKind::mismatch);
    expect_same(decode_record(encode_record(r)), r);
    const std::string self = differ ? "self:differ:24" : "self:same";
    const reports::CsvRow row = reporters::to_row(r);
    EXPECT_EQ(row.get("oracle"), "split:tol:12 unwritten:3 cpu:250/256 " + self);
    EXPECT_EQ(row.get("verdict"), differ ? "fail:nondeterministic" : "fail:mismatch");
    EXPECT_EQ(row.get("mismatches"), "12");  // the split comparison's, as before
    EXPECT_NE(reporters::console_line(r).find(" " + self + "  "), std::string::npos) << reporters::console_line(r);
  }
  // The split reference made again (the calls agreed, the outputs did not match the first one).
  r.oracle.self_differ = 0;
  r.oracle.reference_again = 7;
  r.verdict = Verdict::failed(FailureKind::nondeterministic);
  EXPECT_EQ(decode_record(encode_record(r)).oracle.reference_again, std::optional<std::uint64_t>{7});
  EXPECT_EQ(reporters::to_row(r).get("oracle"), "split:tol:12 unwritten:3 cpu:250/256 self:same ref-again:7");
  r.oracle.reference_again.reset();
  EXPECT_EQ(decode_record(encode_record(r)).oracle.reference_again, std::nullopt);
}

TEST(OracleResult, TextIsTheSchemasVocabulary) {
  EXPECT_EQ(OracleResult{}.to_string(), "-");
  EXPECT_EQ((OracleResult{OracleResult::Kind::guard, "out"}).to_string(), "guard:out");
  EXPECT_EQ((OracleResult{OracleResult::Kind::reference_fault, "CUDA_ERROR_ILLEGAL_ADDRESS"}).to_string(),
            "reference-fault:CUDA_ERROR_ILLEGAL_ADDRESS");
  EXPECT_EQ((OracleResult{OracleResult::Kind::reference_refused}).to_string(), "reference-refused");
  EXPECT_EQ((OracleResult{OracleResult::Kind::device_fault}).to_string(), "oracle-fault");
  EXPECT_EQ((OracleResult{OracleResult::Kind::compared, "", true, 0, 0, 0, 256, 256}).to_string(),
            "split:exact:0 unwritten:0 cpu:256/256");
  EXPECT_EQ((OracleResult{OracleResult::Kind::compared, "", false, 5, 0, 2, 3, 4}).to_string(),
            "split:tol:5 unwritten:2 cpu:3/4");
  OracleResult without_split{OracleResult::Kind::compared, "", true, 0, 0, 1, 7, 8};
  without_split.split_reference = false;
  EXPECT_EQ(without_split.to_string(), "split:none unwritten:1 cpu:7/8");
  EXPECT_EQ(parse_oracle_kind(without_split.to_string()), OracleKind::compared);
}

// A kernel without a split reference (BoundCase::split() empty): the row says so in `oracle`, and
// leaves the columns of the split comparison empty, while the other counts are written.
TEST(RecordRow, WithoutASplitReferenceLeavesItsComparisonColumnsEmpty) {
  CaseRecord r = sample_record();
  r.oracle = {OracleResult::Kind::compared, "", true, 0, 0, 0, 5, 8};
  r.oracle.split_reference = false;
  const reports::CsvRow row = reporters::to_row(r);
  EXPECT_EQ(row.get("oracle"), "split:none unwritten:0 cpu:5/8");
  EXPECT_EQ(row.get("mismatches"), "");
  EXPECT_EQ(row.get("max_abs_err"), "");
  EXPECT_EQ(row.get("unwritten"), "0");
  EXPECT_EQ(row.get("cpu_ok"), "5");
  EXPECT_EQ(row.get("cpu_total"), "8");
  expect_same(decode_record(encode_record(r)), r);  // and it crosses the worker pipe
}

TEST(RecordRow, WritesTheComparisonOnlyWhereTheOracleRan) {
  CaseRecord r = sample_record();
  reports::CsvRow row = reporters::to_row(r);
  EXPECT_EQ(row.get("oracle"), "split:tol:12 unwritten:3 cpu:250/256");
  EXPECT_EQ(row.get("mismatches"), "12");
  EXPECT_EQ(row.get("verdict"), "fail:mismatch");
  EXPECT_EQ(row.get("observed"), "refuse:CUDA_ERROR_INVALID_VALUE");
  EXPECT_EQ(row.get("grid_z"), "65536");
  EXPECT_EQ(row.get("device_index"), "3");
  EXPECT_EQ(row.get("kernels_per_call"), "3");
  EXPECT_EQ(row.get("unwritten"), "3");
  EXPECT_EQ(row.get("cpu_ok"), "250");
  EXPECT_EQ(row.get("cpu_total"), "256");
  r.oracle = OracleResult{};
  r.oracle.kind = OracleResult::Kind::device_fault;
  row = reporters::to_row(r);
  EXPECT_EQ(row.get("oracle"), "oracle-fault");
  EXPECT_EQ(row.get("mismatches"), "");
  EXPECT_EQ(row.get("max_abs_err"), "");
  EXPECT_EQ(row.get("unwritten"), "");
  EXPECT_EQ(row.get("cpu_total"), "");
  r.oracle = OracleResult{OracleResult::Kind::guard, "out"};  // stopped before the comparisons
  row = reporters::to_row(r);
  EXPECT_EQ(row.get("mismatches"), "0");
  EXPECT_EQ(row.get("unwritten"), "");
}

// Schema 1.4: a row of a case that ran carries where its time went; a static row leaves it empty.
TEST(CaseRecord, PhaseTimesReachTheRowOfACaseThatRan) {
  const CaseRecord ran = sample_record();
  const reports::CsvRow row = reporters::to_row(ran);
  EXPECT_EQ(row.get("plan_ms"), "0.25");
  EXPECT_EQ(row.get("cpu_ms"), "12.75");
  EXPECT_EQ(row.get("worker_ms"), "140.5");
  EXPECT_EQ(row.get("timing_ms"), "0");
  CaseRecord none = ran;
  none.phases = {};
  const reports::CsvRow empty = reporters::to_row(none);
  for (const char* column : {"plan_ms", "call_ms", "case_ms", "worker_ms"}) EXPECT_EQ(empty.get(column), "") << column;
}

// Schema 1.6: the CUDA version and the driver's own beside it, the start in ISO 8601 (UTC), the
// finding; float32 event times at float32 precision (the kernel times are CUPTI's integer ns).
TEST(RecordRow, SaysTheDriverTheStartTheFindingAndFloatTimesAsMeasured) {
  CaseRecord r = sample_record();
  r.timing.median_ms = 0.032688f;  // what a CUDA event gives: a float
  r.timing.min_ms = 0.031744f;
  r.timing.max_ms = (0.032688f + 0.033792f) / 2.0;  // a median of two floats, in double
  const reports::CsvRow row = reporters::to_row(r);
  EXPECT_EQ(row.get("driver"), "13.0");
  EXPECT_EQ(row.get("driver_release"), "580.159.04");
  EXPECT_EQ(row.get("started"), "2026-11-30T11:39:25.731Z");
  EXPECT_EQ(row.get("finding"), "vllm-gguf.md#finding-5");
  EXPECT_EQ(row.get("time_ms_median"), "0.032688");
  EXPECT_EQ(row.get("time_ms_min"), "0.031744");
  EXPECT_EQ(row.get("time_ms_max"), "0.033239998");  // the nearest float, its shortest text
  EXPECT_EQ(row.get("kernel_ms_median"), "0.11");
  CaseRecord unknown = r;
  unknown.started_unix_ms = 0;
  unknown.context.driver_release.clear();
  EXPECT_EQ(reporters::to_row(unknown).get("started"), "");
  EXPECT_EQ(reporters::to_row(unknown).get("driver_release"), "");
}

// Schema 1.7: the raw call-time samples, in the order taken, each at float32 precision; empty
// for a case that was not timed.
TEST(RecordRow, WritesTheSamplesInTheOrderTaken) {
  CaseRecord r = sample_record();
  EXPECT_EQ(reporters::to_row(r).get("time_samples_ms"), "0.2 0.1 0.33333334 0.125 0.123 0.15 0.11 0.3 0.12 0.13");
  r.timing.samples = 0;
  EXPECT_EQ(reporters::to_row(r).get("time_samples_ms"), "");
  EXPECT_EQ(reporters::to_row(r).get("time_ms_median"), "");
}

}  // namespace
}  // namespace gridfuzz
