#pragma once
// The outcome vocabulary, every word of it in one place (reports/SCHEMA.md, "Vocabulary"): each
// value with its to_string/parse pair, as CUTLASS's profiler keeps its Disposition and the rest in
// enumerated_types.h. Text exists at the edges only (the CSV, the console, the worker pipe);
// everything between them holds these values. vocabulary.cpp is the one file that spells the words.
//
//   predicted   accept | refuse:<rule> | host-error:<what>                         PredictedOutcome
//   index_wrap  safe | wrap:<name>                                                 IndexWrap
//   observed    accept | refuse:<driver error name> | fault:<error> | timeout |    Observed
//               host-error:<what> | oom | skipped:<reason> | static
//   oracle      - | guard:<buffer> | reference-fault:<error> | reference-refused |  OracleKind
//               split:<exact|tol>:... | oracle-fault                               (OracleResult)
//   failure     refused | host-error | fault | timeout | oom | mismatch |           FailureKind
//               unwritten | out-of-bounds-write | reference | nondeterministic
//   verdict     pass | fail:<failure> | expected-fail | unexpected-pass |          Verdict
//               model-mismatch | skipped | static
//   tier        defaults | profiles | default-sizes | profile-sizes | speed |      CaseTier
//               random | shrink
// The launch rules (Rule, gridfuzz/predictor.hpp) and index types (IndexType,
// gridfuzz/index_range.hpp) belong to the plugin API and are declared there; their words are
// spelled in vocabulary.cpp too.
//
// parse is strict: it takes exactly the forms to_string writes, with a free-text part (<what>,
// <error>, <reason>, <name>) non-empty, on one line and with no space at either end. So a value
// that parses prints back to the same text, and a CSV checked with it (reports/vocabulary.hpp)
// holds nothing the reports cannot classify. read() is parse with the reason a text is none.
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "gridfuzz/index_range.hpp"
#include "gridfuzz/predictor.hpp"

namespace gridfuzz {

// A parse that says why not: the value, or what is wrong with the text (empty when the text is
// none of the forms at all).
template <class T>
struct Parsed {
  std::optional<T> value;
  std::string problem;
};

// ---- predicted: the model's outcome for a whole launch plan ----------------------------------

struct PredictedOutcome {
  enum class Kind { accept, refuse, host_error };
  Kind kind = Kind::accept;
  Rule rule = Rule::grid_zero;  // refuse: the first rule the first refused launch breaks
  std::string what;             // host_error: what the host code fails on

  static PredictedOutcome accept() { return {}; }
  static PredictedOutcome refuse(Rule r) { return {Kind::refuse, r, ""}; }
  static PredictedOutcome host_error(std::string what) { return {Kind::host_error, Rule::grid_zero, std::move(what)}; }
  bool accepted() const { return kind == Kind::accept; }

  std::string to_string() const;  // "accept", "refuse:grid.z", "host-error:<what>"
  static std::optional<PredictedOutcome> parse(std::string_view text);
  static Parsed<PredictedOutcome> read(std::string_view text);
  static std::string_view forms();  // "accept | refuse:<rule> | host-error:<what>", for messages
  bool operator==(const PredictedOutcome&) const = default;
};
std::string_view to_string(PredictedOutcome::Kind kind);  // accept, refuse, host-error
std::optional<PredictedOutcome::Kind> parse_predicted_kind(std::string_view text);
inline constexpr PredictedOutcome::Kind kPredictedKinds[] = {
    PredictedOutcome::Kind::accept, PredictedOutcome::Kind::refuse, PredictedOutcome::Kind::host_error};

// The typed Prediction::outcome and LaunchVerdict::outcome() (their text is the plugin API's).
// predict() writes only the forms above; a Prediction made by hand with another text reads as a
// host error of that text.
PredictedOutcome predicted_outcome(const Prediction& prediction);
PredictedOutcome predicted_outcome(const LaunchVerdict& launch);

// Every launch rule, in the order the predictor checks them.
inline constexpr Rule kRules[] = {Rule::grid_zero, Rule::grid_x,        Rule::grid_y,       Rule::grid_z,
                                  Rule::block_x,   Rule::block_y,       Rule::block_z,      Rule::block_threads,
                                  Rule::smem_default, Rule::smem_optin, Rule::regs};
inline constexpr IndexType kIndexTypes[] = {IndexType::int32, IndexType::uint32, IndexType::int64,
                                            IndexType::uint64, IndexType::int16, IndexType::uint16};
std::string_view index_type_forms();  // "int16 | uint16 | int32 | uint32 | int64 | uint64", for messages

// ---- index_wrap: whether every index fits its declared type ----------------------------------

struct IndexWrap {
  enum class Kind { safe, wrap };
  Kind kind = Kind::safe;
  std::string index;  // wrap: the first index expression that does not fit (arg:<name> for an argument)

  static IndexWrap safe() { return {}; }
  static IndexWrap wrap(std::string index) { return {Kind::wrap, std::move(index)}; }
  bool wraps() const { return kind == Kind::wrap; }

  std::string to_string() const;  // "safe", "wrap:<name>"
  static std::optional<IndexWrap> parse(std::string_view text);
  static Parsed<IndexWrap> read(std::string_view text);
  static std::string_view forms();
  bool operator==(const IndexWrap&) const = default;
};
std::string_view to_string(IndexWrap::Kind kind);  // safe, wrap
std::optional<IndexWrap::Kind> parse_index_wrap_kind(std::string_view text);
inline constexpr IndexWrap::Kind kIndexWrapKinds[] = {IndexWrap::Kind::safe, IndexWrap::Kind::wrap};

// The typed Prediction::index_wrap(): the first wrapping index of the prediction, or safe.
IndexWrap index_wrap_of(const Prediction& prediction);

// ---- observed: what the device did with the production call ----------------------------------

// `accept` (every launch went in), `refuse` (a launch was refused; reason = the CUDA error name),
// `fault` (a sticky device error, or the worker died; reason says which), `timeout`, `host_error`
// (the production host code failed before launching; reason = what), `oom`, `skipped` (reason =
// why), `static_only` (nothing ran).
struct Observed {
  enum class Kind { accept, refuse, fault, timeout, host_error, oom, skipped, static_only };
  Kind kind = Kind::static_only;
  std::string reason;  // refuse, fault, host_error, skipped: the text after the ':'

  std::string to_string() const;  // the CSV's `observed` text: accept, refuse:<err>, fault:<err>, ...
  static std::optional<Observed> parse(std::string_view text);
  static Parsed<Observed> read(std::string_view text);
  static std::string_view forms();
  bool operator==(const Observed&) const = default;
};
std::string_view to_string(Observed::Kind kind);  // accept, refuse, ..., host-error, ..., static
std::optional<Observed::Kind> parse_observed_kind(std::string_view text);
// Whether the kind is written with a reason ("<kind>:<reason>"): refuse, fault, host_error, skipped.
bool has_reason(Observed::Kind kind);
inline constexpr Observed::Kind kObservedKinds[] = {
    Observed::Kind::accept, Observed::Kind::refuse,  Observed::Kind::fault,   Observed::Kind::timeout,
    Observed::Kind::host_error, Observed::Kind::oom, Observed::Kind::skipped, Observed::Kind::static_only};

// ---- oracle: what the oracle found for a case whose launches were all accepted ---------------

// not_run (`-`: a refusal, a fault, static), guard (a guard zone changed), reference_fault and
// reference_refused (the split reference itself failed), compared (every check ran), device_fault
// (a device error inside the oracle). The `oracle` column's text is OracleResult::to_string.
enum class OracleKind { not_run, guard, reference_fault, reference_refused, compared, device_fault };
std::string_view to_string(OracleKind kind);  // -, guard, reference-fault, reference-refused, split, oracle-fault
// The kind of an `oracle` text, by its first word ("split:exact:0 unwritten:0 cpu:256/256" is
// compared, "guard:out" guard); nullopt for any other text.
std::optional<OracleKind> parse_oracle_kind(std::string_view oracle_text);
inline constexpr OracleKind kOracleKinds[] = {OracleKind::not_run,           OracleKind::guard,
                                              OracleKind::reference_fault,   OracleKind::reference_refused,
                                              OracleKind::compared,          OracleKind::device_fault};
// Whether an `oracle` text says anything a reader of a report wants beside `accept`: not for an
// empty text, `-` (not run), or the words of the schema's draft grammar for a clean comparison,
// `exact` and `within-tol` (hand-made rows still use them). The column is free text otherwise.
bool oracle_says_something(std::string_view oracle_text);

// ---- failure: what failed, in a `fail:<failure>` verdict -------------------------------------

// refused, host_error, fault and timeout: the observation itself; oom: the buffers could not be
// allocated; out_of_bounds_write (a guard zone changed), unwritten (outputs left poisoned),
// mismatch (outputs differ from the split reference), reference (the split reference failed, or
// CPU reference samples are off): the oracle's first failing check. nondeterministic: the
// production call made again on the same inputs gave other outputs (a race; self_check.hpp),
// whatever the checks above found.
enum class FailureKind {
  refused, host_error, fault, timeout, oom, mismatch, unwritten, out_of_bounds_write, reference, nondeterministic
};
std::string_view to_string(FailureKind kind);  // refused, host-error, ..., out-of-bounds-write, reference
std::optional<FailureKind> parse_failure_kind(std::string_view text);
inline constexpr FailureKind kFailureKinds[] = {
    FailureKind::refused,  FailureKind::host_error, FailureKind::fault,     FailureKind::timeout,
    FailureKind::oom,      FailureKind::mismatch,   FailureKind::unwritten, FailureKind::out_of_bounds_write,
    FailureKind::reference, FailureKind::nondeterministic};

// ---- verdict: the case's verdict --------------------------------------------------------------

struct Verdict {
  enum class Kind { pass, expected_fail, unexpected_pass, model_mismatch, fail, skipped, static_only };
  Kind kind = Kind::pass;
  std::optional<FailureKind> failure_kind;  // set exactly when kind == fail

  static Verdict of(Kind kind) { return {kind, std::nullopt}; }  // any kind but fail
  static Verdict failed(FailureKind failure) { return {Kind::fail, failure}; }

  std::string to_string() const;  // "pass", "fail:fault", ...
  // The text of a verdict column, or nullopt when it is none (an empty `fail:` included).
  static std::optional<Verdict> parse(std::string_view text);
  static Parsed<Verdict> read(std::string_view text);
  static std::string_view forms();
  // Whether a case with this verdict fails the run (and the nightly gate): a failure nobody
  // expected, a model that was wrong, or a ledger entry that no longer holds.
  bool fails_run() const { return kind == Kind::fail || kind == Kind::model_mismatch || kind == Kind::unexpected_pass; }
  bool operator==(const Verdict&) const = default;
};
// The kind's word: pass, expected-fail, unexpected-pass, model-mismatch, fail, skipped, static
// (what a report's verdict columns are headed with; fail:<failure> verdicts count under `fail`).
std::string_view to_string(Verdict::Kind kind);
std::optional<Verdict::Kind> parse_verdict_kind(std::string_view text);
inline constexpr Verdict::Kind kVerdictKinds[] = {
    Verdict::Kind::pass,           Verdict::Kind::expected_fail, Verdict::Kind::unexpected_pass,
    Verdict::Kind::model_mismatch, Verdict::Kind::fail,          Verdict::Kind::skipped,
    Verdict::Kind::static_only};

// ---- tier: which part of a sweep made the case -----------------------------------------------

// The boundary tiers first, in the order a sweep runs them (kBoundaryTiers; the sweep's SweepTier
// indexes it): the start shapes and the model's boundaries from the defaults, then from the model
// profiles' shapes, the size crossings from the defaults, then from the profiles, then the speed
// tier's cases. Then the random cases rapidcheck draws, and the cases it tries while shrinking a
// failure. A case no sweep made (run, replay, bisect) has no tier (an empty `tier` column). The
// words are `sweep --tiers`' names too; its `all` and `none` are no tier.
enum class CaseTier { defaults, profiles, default_sizes, profile_sizes, speed, random, shrink };
std::string_view to_string(CaseTier tier);  // defaults, profiles, default-sizes, profile-sizes, speed, random, shrink
std::optional<CaseTier> parse_case_tier(std::string_view text);
std::string_view case_tier_forms();  // "defaults | profiles | ... | shrink", for messages
inline constexpr CaseTier kCaseTiers[] = {CaseTier::defaults,      CaseTier::profiles, CaseTier::default_sizes,
                                          CaseTier::profile_sizes, CaseTier::speed,    CaseTier::random,
                                          CaseTier::shrink};
inline constexpr CaseTier kBoundaryTiers[] = {CaseTier::defaults, CaseTier::profiles, CaseTier::default_sizes,
                                              CaseTier::profile_sizes, CaseTier::speed};

}  // namespace gridfuzz
