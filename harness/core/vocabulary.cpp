// The one file that spells the outcome vocabulary (vocabulary.hpp, reports/SCHEMA.md). Every word
// is in a table below, next to its value; to_string and parse both read the tables.
#include "gridfuzz/core/vocabulary.hpp"

#include <array>
#include <string>
#include <utility>

#include "gridfuzz/core/oracle_result.hpp"

namespace gridfuzz {
namespace {

template <class E>
using Names = std::pair<E, std::string_view>;

template <class E, std::size_t N>
std::string_view name_of(const std::array<Names<E>, N>& table, E value) {
  for (const auto& [v, name] : table)
    if (v == value) return name;
  return "?";
}

template <class E, std::size_t N>
std::optional<E> value_of(const std::array<Names<E>, N>& table, std::string_view text) {
  for (const auto& [v, name] : table)
    if (name == text) return v;
  return std::nullopt;
}

// The text after "<word>:" when `text` starts with it.
std::optional<std::string_view> after(std::string_view text, std::string_view word) {
  if (text.size() <= word.size() || !text.starts_with(word) || text[word.size()] != ':') return std::nullopt;
  return text.substr(word.size() + 1);
}

std::string joined(std::string_view word, std::string_view rest) {
  std::string out;
  out.reserve(word.size() + 1 + rest.size());
  out += word;
  out += ':';
  out += rest;
  return out;
}

// Appended piecewise: `"'" + std::string(...)` trips GCC 12's -Wrestrict false positive.
std::string quoted(std::string_view value) {
  std::string out;
  out.reserve(value.size() + 2);
  out += '\'';
  out += value;
  out += '\'';
  return out;
}

// The free-text part after "kind:" (a host error, a fault, a skip reason, an index name):
// non-empty, one line and no stray spacing, so rows stay greppable and group cleanly.
std::optional<std::string> free_text_problem(std::string_view text) {
  if (text.empty()) return "empty after ':'";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) return "contains a control character";
  }
  if (text.front() == ' ' || text.back() == ' ') return "leading or trailing space after ':'";
  return std::nullopt;
}

bool is_identifier(std::string_view text) {
  if (text.empty()) return false;
  const auto is_alpha = [](char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); };
  if (!is_alpha(text.front()) && text.front() != '_') return false;
  for (const char c : text)
    if (!is_alpha(c) && !(c >= '0' && c <= '9') && c != '_') return false;
  return true;
}

bool is_token(std::string_view text) {
  if (text.empty()) return false;
  for (const char c : text) {
    const bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-' || c == '.';
    if (!ok) return false;
  }
  return true;
}

template <class T>
Parsed<T> ok(T value) {
  return {std::move(value), {}};
}

template <class T>
Parsed<T> not_valid(std::string problem = {}) {
  return {std::nullopt, std::move(problem)};
}

// ---- the words -------------------------------------------------------------------------------

constexpr std::array<Names<Rule>, 11> kRuleNames{{
    {Rule::grid_zero, "grid.zero"},
    {Rule::grid_x, "grid.x"},
    {Rule::grid_y, "grid.y"},
    {Rule::grid_z, "grid.z"},
    {Rule::block_x, "block.x"},
    {Rule::block_y, "block.y"},
    {Rule::block_z, "block.z"},
    {Rule::block_threads, "block.threads"},
    {Rule::smem_default, "smem.default"},
    {Rule::smem_optin, "smem.optin"},
    {Rule::regs, "regs"},
}};

constexpr std::array<Names<IndexType>, 6> kIndexTypeNames{{
    {IndexType::int32, "int32"},
    {IndexType::uint32, "uint32"},
    {IndexType::int64, "int64"},
    {IndexType::uint64, "uint64"},
    {IndexType::int16, "int16"},
    {IndexType::uint16, "uint16"},
}};

constexpr std::array<Names<PredictedOutcome::Kind>, 3> kPredictedNames{{
    {PredictedOutcome::Kind::accept, "accept"},
    {PredictedOutcome::Kind::refuse, "refuse"},
    {PredictedOutcome::Kind::host_error, "host-error"},
}};

constexpr std::array<Names<IndexWrap::Kind>, 2> kIndexWrapNames{{
    {IndexWrap::Kind::safe, "safe"},
    {IndexWrap::Kind::wrap, "wrap"},
}};

// Those with a reason are written "<name>:<reason>" (has_reason).
constexpr std::array<Names<Observed::Kind>, 8> kObservedNames{{
    {Observed::Kind::accept, "accept"},
    {Observed::Kind::refuse, "refuse"},
    {Observed::Kind::fault, "fault"},
    {Observed::Kind::timeout, "timeout"},
    {Observed::Kind::host_error, "host-error"},
    {Observed::Kind::oom, "oom"},
    {Observed::Kind::skipped, "skipped"},
    {Observed::Kind::static_only, "static"},
}};

// The first word of each oracle text (OracleResult::to_string writes the rest).
constexpr std::array<Names<OracleKind>, 6> kOracleNames{{
    {OracleKind::not_run, "-"},
    {OracleKind::guard, "guard"},
    {OracleKind::reference_fault, "reference-fault"},
    {OracleKind::reference_refused, "reference-refused"},
    {OracleKind::compared, "split"},
    {OracleKind::device_fault, "oracle-fault"},
}};

// The schema draft's oracle words for a clean comparison (never written by gridfuzz).
constexpr std::string_view kDraftOracleWords[] = {"exact", "within-tol"};

constexpr std::array<Names<FailureKind>, 10> kFailureNames{{
    {FailureKind::refused, "refused"},
    {FailureKind::host_error, "host-error"},
    {FailureKind::fault, "fault"},
    {FailureKind::timeout, "timeout"},
    {FailureKind::oom, "oom"},
    {FailureKind::mismatch, "mismatch"},
    {FailureKind::unwritten, "unwritten"},
    {FailureKind::out_of_bounds_write, "out-of-bounds-write"},
    {FailureKind::reference, "reference"},
    {FailureKind::nondeterministic, "nondeterministic"},
}};

constexpr std::array<Names<Verdict::Kind>, 7> kVerdictNames{{
    {Verdict::Kind::pass, "pass"},
    {Verdict::Kind::expected_fail, "expected-fail"},
    {Verdict::Kind::unexpected_pass, "unexpected-pass"},
    {Verdict::Kind::model_mismatch, "model-mismatch"},
    {Verdict::Kind::fail, "fail"},  // written fail:<failure>
    {Verdict::Kind::skipped, "skipped"},
    {Verdict::Kind::static_only, "static"},
}};

constexpr std::array<Names<CaseTier>, 7> kCaseTierNames{{
    {CaseTier::defaults, "defaults"},
    {CaseTier::profiles, "profiles"},
    {CaseTier::default_sizes, "default-sizes"},
    {CaseTier::profile_sizes, "profile-sizes"},
    {CaseTier::speed, "speed"},
    {CaseTier::random, "random"},
    {CaseTier::shrink, "shrink"},
}};

static_assert(kRuleNames.size() == std::size(kRules));
static_assert(kIndexTypeNames.size() == std::size(kIndexTypes));
static_assert(kPredictedNames.size() == std::size(kPredictedKinds));
static_assert(kIndexWrapNames.size() == std::size(kIndexWrapKinds));
static_assert(kObservedNames.size() == std::size(kObservedKinds));
static_assert(kOracleNames.size() == std::size(kOracleKinds));
static_assert(kFailureNames.size() == std::size(kFailureKinds));
static_assert(kVerdictNames.size() == std::size(kVerdictKinds));
static_assert(kCaseTierNames.size() == std::size(kCaseTiers));

}  // namespace

// ---- the plugin API's words: launch rules and index types (declared in gridfuzz/*.hpp) --------

std::string to_string(Rule r) { return std::string(name_of(kRuleNames, r)); }

std::optional<Rule> parse_rule(const std::string& s) { return value_of(kRuleNames, std::string_view(s)); }

std::string to_string(IndexType t) { return std::string(name_of(kIndexTypeNames, t)); }

std::optional<IndexType> parse_index_type(const std::string& s) { return value_of(kIndexTypeNames, std::string_view(s)); }

std::string_view index_type_forms() { return "int16 | uint16 | int32 | uint32 | int64 | uint64"; }

// ---- predicted ---------------------------------------------------------------------------------

std::string_view to_string(PredictedOutcome::Kind kind) { return name_of(kPredictedNames, kind); }

std::optional<PredictedOutcome::Kind> parse_predicted_kind(std::string_view text) {
  return value_of(kPredictedNames, text);
}

std::string PredictedOutcome::to_string() const {
  switch (kind) {
    case Kind::accept: return std::string(gridfuzz::to_string(kind));
    case Kind::refuse: return joined(gridfuzz::to_string(kind), name_of(kRuleNames, rule));
    case Kind::host_error: return joined(gridfuzz::to_string(kind), what);
  }
  return "?";
}

std::string_view PredictedOutcome::forms() { return "accept | refuse:<rule> | host-error:<what>"; }

Parsed<PredictedOutcome> PredictedOutcome::read(std::string_view text) {
  if (text == gridfuzz::to_string(Kind::accept)) return ok(accept());
  if (const auto name = after(text, gridfuzz::to_string(Kind::refuse))) {
    if (name->empty()) return not_valid<PredictedOutcome>("empty launch rule");
    // The predictor's rules only: the two lists cannot drift apart.
    if (const auto rule = value_of(kRuleNames, *name)) return ok(refuse(*rule));
    return not_valid<PredictedOutcome>("unknown launch rule " + quoted(*name));
  }
  if (const auto what_failed = after(text, gridfuzz::to_string(Kind::host_error))) {
    if (auto problem = free_text_problem(*what_failed)) return not_valid<PredictedOutcome>(std::move(*problem));
    return ok(host_error(std::string(*what_failed)));
  }
  return not_valid<PredictedOutcome>();
}

std::optional<PredictedOutcome> PredictedOutcome::parse(std::string_view text) { return read(text).value; }

PredictedOutcome predicted_outcome(const LaunchVerdict& launch) {
  return launch.accepted || !launch.rule ? PredictedOutcome::accept() : PredictedOutcome::refuse(*launch.rule);
}

PredictedOutcome predicted_outcome(const Prediction& prediction) {
  const std::string_view text = prediction.outcome;
  using Kind = PredictedOutcome::Kind;
  if (text == to_string(Kind::accept)) return PredictedOutcome::accept();
  if (const auto name = after(text, to_string(Kind::refuse)))
    if (const auto rule = value_of(kRuleNames, *name)) return PredictedOutcome::refuse(*rule);
  // The plan's own words, as they are (what predict() wrote after the prefix).
  if (const auto what = after(text, to_string(Kind::host_error))) return PredictedOutcome::host_error(std::string(*what));
  return PredictedOutcome::host_error(prediction.outcome);
}

// ---- index_wrap --------------------------------------------------------------------------------

std::string_view to_string(IndexWrap::Kind kind) { return name_of(kIndexWrapNames, kind); }

std::optional<IndexWrap::Kind> parse_index_wrap_kind(std::string_view text) { return value_of(kIndexWrapNames, text); }

std::string IndexWrap::to_string() const {
  return wraps() ? joined(gridfuzz::to_string(kind), index) : std::string(gridfuzz::to_string(kind));
}

std::string_view IndexWrap::forms() { return "safe | wrap:<name>"; }

Parsed<IndexWrap> IndexWrap::read(std::string_view text) {
  if (text == gridfuzz::to_string(Kind::safe)) return ok(safe());
  if (const auto name = after(text, gridfuzz::to_string(Kind::wrap))) {
    if (auto problem = free_text_problem(*name)) return not_valid<IndexWrap>(std::move(*problem));
    return ok(wrap(std::string(*name)));
  }
  return not_valid<IndexWrap>();
}

std::optional<IndexWrap> IndexWrap::parse(std::string_view text) { return read(text).value; }

IndexWrap index_wrap_of(const Prediction& prediction) {
  for (const auto& iv : prediction.indices)
    if (!iv.safe) return IndexWrap::wrap(iv.name);
  return IndexWrap::safe();
}

// ---- observed ----------------------------------------------------------------------------------

std::string_view to_string(Observed::Kind kind) { return name_of(kObservedNames, kind); }

std::optional<Observed::Kind> parse_observed_kind(std::string_view text) { return value_of(kObservedNames, text); }

bool has_reason(Observed::Kind kind) {
  using Kind = Observed::Kind;
  return kind == Kind::refuse || kind == Kind::fault || kind == Kind::host_error || kind == Kind::skipped;
}

std::string Observed::to_string() const {
  const std::string_view name = gridfuzz::to_string(kind);
  return reason.empty() ? std::string(name) : joined(name, reason);
}

std::string_view Observed::forms() {
  return "accept | refuse:<driver error name> | fault:<error> | timeout | host-error:<what> | oom | "
         "skipped:<reason> | static";
}

Parsed<Observed> Observed::read(std::string_view text) {
  for (const Kind kind : kObservedKinds) {
    const std::string_view name = gridfuzz::to_string(kind);
    if (!has_reason(kind)) {
      if (text == name) return ok(Observed{kind, ""});
      continue;
    }
    const auto reason = after(text, name);
    if (!reason) continue;
    if (kind == Kind::refuse) {
      if (!is_identifier(*reason)) return not_valid<Observed>("the driver error name must be an identifier");
    } else if (auto problem = free_text_problem(*reason)) {
      return not_valid<Observed>(std::move(*problem));
    }
    return ok(Observed{kind, std::string(*reason)});
  }
  return not_valid<Observed>();
}

std::optional<Observed> Observed::parse(std::string_view text) { return read(text).value; }

// ---- oracle ------------------------------------------------------------------------------------

std::string_view to_string(OracleKind kind) { return name_of(kOracleNames, kind); }

std::optional<OracleKind> parse_oracle_kind(std::string_view oracle_text) {
  return value_of(kOracleNames, oracle_text.substr(0, oracle_text.find(':')));
}

bool oracle_says_something(std::string_view oracle_text) {
  if (oracle_text.empty() || oracle_text == to_string(OracleKind::not_run)) return false;
  for (const std::string_view word : kDraftOracleWords)
    if (oracle_text == word) return false;
  return true;
}

std::string OracleResult::to_string() const {
  const std::string_view name = gridfuzz::to_string(kind);
  switch (kind) {
    case Kind::not_run:
    case Kind::reference_refused:
    case Kind::device_fault: return std::string(name);
    case Kind::guard:
    case Kind::reference_fault: return joined(name, where);
    case Kind::compared: {
      std::string text = (split_reference ? joined(name, exact ? "exact" : "tol") + ":" + std::to_string(split_mismatches)
                                          : joined(name, "none")) +
                         " unwritten:" + std::to_string(unwritten) + " cpu:" + std::to_string(cpu_ok) + "/" +
                         std::to_string(cpu_total);
      if (self_differ) {  // appended piecewise (quoted() says why)
        text += ' ';
        text += self_check_text();
      }
      return text;
    }
  }
  return "?";
}

std::string OracleResult::self_check_text() const {
  if (!self_differ) return {};
  std::string text = *self_differ == 0 ? "self:same" : "self:differ:";
  if (*self_differ != 0) text += std::to_string(*self_differ);
  if (reference_again) {
    text += " ref-again:";
    text += std::to_string(*reference_again);
  }
  return text;
}

// ---- failure -----------------------------------------------------------------------------------

std::string_view to_string(FailureKind kind) { return name_of(kFailureNames, kind); }

std::optional<FailureKind> parse_failure_kind(std::string_view text) { return value_of(kFailureNames, text); }

// ---- verdict -----------------------------------------------------------------------------------

std::string_view to_string(Verdict::Kind kind) { return name_of(kVerdictNames, kind); }

std::optional<Verdict::Kind> parse_verdict_kind(std::string_view text) { return value_of(kVerdictNames, text); }

std::string Verdict::to_string() const {
  const std::string_view name = gridfuzz::to_string(kind);
  if (kind != Kind::fail) return std::string(name);
  return joined(name, failure_kind ? gridfuzz::to_string(*failure_kind) : std::string_view());
}

std::string_view Verdict::forms() {
  return "pass | fail:<kind> | expected-fail | unexpected-pass | model-mismatch | skipped | static";
}

Parsed<Verdict> Verdict::read(std::string_view text) {
  if (const auto failure = after(text, gridfuzz::to_string(Kind::fail))) {
    if (!is_token(*failure))
      return not_valid<Verdict>("the failure kind must be a non-empty token of [A-Za-z0-9_.-]");
    if (const auto kind = parse_failure_kind(*failure)) return ok(Verdict::failed(*kind));
    return not_valid<Verdict>("unknown failure kind " + quoted(*failure));
  }
  if (const auto kind = parse_verdict_kind(text); kind && *kind != Kind::fail) return ok(Verdict::of(*kind));
  return not_valid<Verdict>();
}

std::optional<Verdict> Verdict::parse(std::string_view text) { return read(text).value; }

// ---- tier --------------------------------------------------------------------------------------

std::string_view to_string(CaseTier tier) { return name_of(kCaseTierNames, tier); }

std::optional<CaseTier> parse_case_tier(std::string_view text) { return value_of(kCaseTierNames, text); }

std::string_view case_tier_forms() {
  static const std::string forms = [] {
    std::string out;
    for (const auto& [tier, name] : kCaseTierNames) {
      if (!out.empty()) out += " | ";
      out += name;
    }
    return out;
  }();
  return forms;
}

}  // namespace gridfuzz
