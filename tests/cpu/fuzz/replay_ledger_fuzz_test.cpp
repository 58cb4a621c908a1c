// Replay strings (`gridfuzz replay`, the `replay` column of any CSV, the worker's requests) and
// known-failure ledgers (`--ledger FILE`) on mutated input.
//
// Case::parse_replay and Params::parse throw std::invalid_argument, Ledger::parse
// std::invalid_argument (with the line); what they accept reads back equal from the text they
// write.
#include <stdexcept>
#include <string>
#include <vector>

#include "fuzz_support.hpp"
#include "gridfuzz/core/case.hpp"
#include "gridfuzz/core/ledger.hpp"
#include "gridfuzz/params.hpp"

namespace gridfuzz::fuzz {
namespace {

constexpr std::string_view kReplaySeparators = "/,=";
constexpr std::string_view kLedgerSeparators = " \t\n#";

const std::vector<std::string>& replay_seeds() {
  static const std::vector<std::string> seeds{
      // From baselines/nvidia-h200.csv and the kernels' axes.
      "affine.gather_qmm/legacy/1/bits=4,cols=4096,dtype=bf16,experts=128,group_size=64,rows=768,tokens=16,top_k=8",
      "gguf.moe_vec/legacy/18446744073709551615/quant=q4_0,rows=65536,tokens=8192,top_k=8",
      "gguf.quantize_q8_1/fixed/0/cols=4096,rows=2147483648",
      "selftest.flat_yz/fixed/3/",
      "my.rms_norm/checked/42/rows=65536",
  };
  return seeds;
}

const std::vector<std::string>& ledger_seeds() {
  static const std::vector<std::string> seeds{
      read_file(GRIDFUZZ_SOURCE_DIR "/properties/known-failures.txt"),
      "# comment\n\ngguf.moe_vec legacy refused\r\n  affine.qmm\tlegacy   wrap # trailing\nx y always",
      "k v fail:fault|fail:mismatch a.md#finding-1 b.cuh:3-4 if !(tokens * top_k > 2^16) || proj == \"down\" # c\n",
  };
  return seeds;
}

}  // namespace

FUZZ_PROP(FuzzReplay, ParseReturnsACaseOrThrowsInvalidArgument, 3000) {
  const std::string text = mutated(replay_seeds(), kReplaySeparators);
  const auto parsed = expect_value_or<std::invalid_argument>([&] { return Case::parse_replay(text); });
  if (!parsed.value) return;
  const Case& c = *parsed.value;
  RC_ASSERT(!c.kernel.empty());
  RC_ASSERT(!c.variant.empty());
  RC_ASSERT(c.kernel.find('/') == std::string::npos);
  RC_ASSERT(c.variant.find('/') == std::string::npos);
  RC_ASSERT(c.id().size() == 16u);
}

// The replay string of an accepted case is its canonical text: it parses back to the same case,
// and writing that case again gives the same text.
FUZZ_PROP(FuzzReplay, AcceptedCasesRoundTrip, 2000) {
  const std::string text = mutated(replay_seeds(), kReplaySeparators);
  const auto parsed = expect_value_or<std::invalid_argument>([&] { return Case::parse_replay(text); });
  if (!parsed.value) return;
  const std::string replay = parsed.value->replay();
  RC_LOG() << "replay(): " << cpp_literal(replay) << "\n";
  const auto again = expect_value_or<std::invalid_argument>([&] { return Case::parse_replay(replay); });
  if (!again.value) RC_FAIL("replay() of an accepted case is rejected: " + again.rejected);
  RC_ASSERT(*again.value == *parsed.value);
  RC_ASSERT(again.value->replay() == replay);
  RC_ASSERT(again.value->id() == parsed.value->id());
}

// Params::parse alone (run --set values end up here through replay strings, and plugins' axes).
FUZZ_PROP(FuzzReplay, ParamsParseOrThrowInvalidArgumentAndRoundTrip, 2000) {
  const std::string text = mutated({"bits=4,cols=4096,dtype=bf16", "tokens=8192", "a=,b==c"}, ",=");
  const auto parsed = expect_value_or<std::invalid_argument>([&] { return Params::parse(text); });
  if (!parsed.value) return;
  for (const auto& [name, value] : parsed.value->values()) {
    RC_ASSERT(!name.empty());
    RC_ASSERT(name.find_first_of(",=") == std::string::npos);
    RC_ASSERT(value.find(',') == std::string::npos);
    // get_int: a whole number or std::invalid_argument, never another exception.
    (void)expect_value_or<std::invalid_argument>([&] { return parsed.value->get_int(name); });
    (void)expect_value_or<std::invalid_argument>([&] { return parsed.value->get_u64(name); });
  }
  const auto again = expect_value_or<std::invalid_argument>([&] { return Params::parse(parsed.value->to_string()); });
  if (!again.value) RC_FAIL("to_string() of accepted params is rejected: " + again.rejected);
  RC_ASSERT(*again.value == *parsed.value);
}

FUZZ_PROP(FuzzLedger, ParseReturnsEntriesOrThrowsInvalidArgument, 2000) {
  const std::string text = mutated(ledger_seeds(), kLedgerSeparators);
  const auto parsed = expect_value_or<std::invalid_argument>([&] { return Ledger::parse(text, "fuzz-ledger"); });
  if (!parsed.value) {
    // The message names the source and the line.
    RC_ASSERT(parsed.rejected.rfind("fuzz-ledger:", 0) == 0);
    return;
  }
  for (const LedgerEntry& e : parsed.value->entries()) {
    for (const std::string* word : {&e.kernel, &e.variant, e.is_finding() ? &e.source : &e.when}) {
      RC_ASSERT(!word->empty());
      RC_ASSERT(word->find_first_of(" \t\n\r\v\f#") == std::string::npos);
    }
    if (e.is_finding())
      RC_ASSERT(!e.kinds.empty() && e.when.empty() && e.finding.find('#') != std::string::npos);
    else
      RC_ASSERT(e.when == "refused" || e.when == "wrap" || e.when == "always");
  }
}

// Accepted entries, written one a line, read back as the same entries.
FUZZ_PROP(FuzzLedger, AcceptedEntriesRoundTrip, 1500) {
  const std::string text = mutated(ledger_seeds(), kLedgerSeparators);
  const auto parsed = expect_value_or<std::invalid_argument>([&] { return Ledger::parse(text, "fuzz-ledger"); });
  if (!parsed.value) return;
  std::string written;
  for (const LedgerEntry& e : parsed.value->entries()) written += e.text() + "\n";
  RC_LOG() << "written: " << cpp_literal(written) << "\n";
  const auto again = expect_value_or<std::invalid_argument>([&] { return Ledger::parse(written, "written"); });
  if (!again.value) RC_FAIL("the accepted entries, written again, are rejected: " + again.rejected);
  RC_ASSERT(again.value->entries().size() == parsed.value->entries().size());
  for (std::size_t i = 0; i < parsed.value->entries().size(); ++i) {
    const LedgerEntry& a = parsed.value->entries()[i];
    const LedgerEntry& b = again.value->entries()[i];
    RC_ASSERT(a.kernel == b.kernel && a.variant == b.variant && a.when == b.when);
    RC_ASSERT(a.kinds == b.kinds && a.finding == b.finding && a.source == b.source);
    RC_ASSERT(a.condition.has_value() == b.condition.has_value());
    if (a.condition) RC_ASSERT(a.condition->text() == b.condition->text());
  }
}

}  // namespace gridfuzz::fuzz
