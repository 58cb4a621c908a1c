// The ledger's finding entries (core/ledger.hpp): how a line is read, which failure it expects
// (kernel, variant, kind, condition) and which not, the errors of a bad line; and the checked-in
// ledger, whose every finding names an anchor that exists in docs/upstream.
#include "gridfuzz/core/ledger.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>

namespace gridfuzz {
namespace {

constexpr const char* kMoeMmq =
    "# vllm-gguf.md finding 5\n"
    "vllm.moe_mmq upstream fail:unwritten|fail:mismatch vllm-gguf.md#finding-5 moe.cuh:33 if experts > 256\n"
    "llamacpp.mmq upstream fail:fault llama-cpp.md#finding-3 mmq.cuh:919-924\n";

ConditionLookup experts(int n) { return case_condition_lookup({{"experts", std::to_string(n)}}, "accept", "accept", "safe"); }

TEST(LedgerFinding, ReadsTheEntryWholeWithAnAnchorThatHoldsAHash) {
  const Ledger l = Ledger::parse(kMoeMmq, "kf.txt");
  ASSERT_EQ(l.entries().size(), 2u);
  const LedgerEntry& e = l.entries()[0];
  EXPECT_TRUE(e.is_finding());
  EXPECT_EQ(e.line, 2);
  EXPECT_EQ(e.kernel, "vllm.moe_mmq");
  EXPECT_EQ(e.variant, "upstream");
  EXPECT_EQ(e.kinds, (std::vector<FailureKind>{FailureKind::unwritten, FailureKind::mismatch}));
  EXPECT_EQ(e.finding, "vllm-gguf.md#finding-5");
  EXPECT_EQ(e.source, "moe.cuh:33");
  ASSERT_TRUE(e.condition.has_value());
  EXPECT_EQ(e.condition->text(), "experts > 256");
  EXPECT_FALSE(l.entries()[1].condition.has_value());
}

TEST(LedgerFinding, MatchesByKernelVariantKindAndCondition) {
  const Ledger l = Ledger::parse(kMoeMmq);
  const LedgerEntry* hit = l.known_failure("vllm.moe_mmq", "upstream", FailureKind::unwritten, experts(384));
  ASSERT_NE(hit, nullptr);
  EXPECT_EQ(hit->finding, "vllm-gguf.md#finding-5");
  EXPECT_NE(l.known_failure("vllm.moe_mmq", "upstream", FailureKind::mismatch, experts(257)), nullptr);
  // Outside its condition, of another kind, variant or kernel: nothing.
  EXPECT_EQ(l.known_failure("vllm.moe_mmq", "upstream", FailureKind::unwritten, experts(256)), nullptr);
  EXPECT_EQ(l.known_failure("vllm.moe_mmq", "upstream", FailureKind::fault, experts(384)), nullptr);
  EXPECT_EQ(l.known_failure("vllm.moe_mmq", "chunked", FailureKind::unwritten, experts(384)), nullptr);
  EXPECT_EQ(l.known_failure("vllm.moe_vec", "upstream", FailureKind::unwritten, experts(384)), nullptr);
  // Without a condition: every failure of its kind.
  EXPECT_NE(l.known_failure("llamacpp.mmq", "upstream", FailureKind::fault, experts(1)), nullptr);
  // A finding predicts nothing: the refused/wrap/always rule is apart.
  Prediction refused;
  refused.outcome = "refuse:grid.z";
  EXPECT_FALSE(l.expects_failure("llamacpp.mmq", "upstream", refused));
}

TEST(LedgerFinding, ABadEntryIsRefusedNamingItsLine) {
  const auto message = [](const std::string& text) -> std::string {
    try {
      Ledger::parse("# fine\nk legacy refused\n" + text + "\n", "kf.txt");
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "accepted";
  };
  const std::string good_tail = " x.md#finding-1 a.cu:1";
  for (const auto& [line, says] : std::vector<std::pair<std::string, std::string>>{
           {"k v fail:nonsense" + good_tail, "is not a failure verdict"},
           {"k v expected-fail" + good_tail, "is not a failure verdict"},
           {"k v fail:fault x.md a.cu:1", "is not a finding"},
           {"k v fail:fault x.txt#a a.cu:1", "is not a finding"},
           {"k v fail:fault x.md#Finding-1 a.cu:1", "is not a finding"},
           {"k v fail:fault x.md#finding-1 a.cu", "is not an upstream FILE:LINE"},
           {"k v fail:fault x.md#finding-1 a.cu:1x", "is not an upstream FILE:LINE"},
           {"k v fail:fault x.md#finding-1 q#mm.cuh:1", "is not an upstream FILE:LINE"},  // fuzz-found
           {"k v fail:fault" + good_tail + " if experts >", "condition 'experts >'"},
           {"k v fail:fault" + good_tail + " if experts", "a comparison"},
           {"k v fail:fault" + good_tail + " extra", "expected 'KERNEL VARIANT WHEN'"},
           {"k v fail:fault" + good_tail + " if proj == \"a", "not closed"},
       }) {
    const std::string m = message(line);
    EXPECT_EQ(m.rfind("kf.txt:3: ", 0), 0u) << line << " -> " << m;
    EXPECT_NE(m.find(says), std::string::npos) << line << " -> " << m;
  }
  // Two entries for one finding: the second is refused, naming the first.
  const std::string twice = message("k v fail:fault" + good_tail + "\nk v fail:mismatch" + good_tail);
  EXPECT_EQ(twice.rfind("kf.txt:4: a second entry for k v x.md#finding-1 (line 3)", 0), 0u) << twice;
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The checked-in ledger reads, holds today's documented findings, and each finding's anchor is
// an id or heading of its docs/upstream file (a renamed finding would leave its rows unnamed).
TEST(LedgerFinding, TheCheckedInLedgerNamesFindingsThatExist) {
  const Ledger l = Ledger::load(std::string(GRIDFUZZ_SOURCE_DIR) + "/properties/known-failures.txt");
  std::vector<std::string> findings;
  for (const LedgerEntry& e : l.entries()) {
    if (!e.is_finding()) continue;
    findings.push_back(e.kernel + " " + e.variant + " " + e.finding);
    const auto hash = e.finding.find('#');
    const std::string doc = read(std::string(GRIDFUZZ_SOURCE_DIR) + "/docs/upstream/" + e.finding.substr(0, hash));
    ASSERT_FALSE(doc.empty()) << "no docs/upstream/" << e.finding.substr(0, hash);
    EXPECT_NE(doc.find("id=\"" + e.finding.substr(hash + 1) + "\""), std::string::npos)
        << e.finding << " names no anchor of its document";
  }
  EXPECT_EQ(findings, (std::vector<std::string>{"vllm.moe_mmq upstream vllm-gguf.md#finding-5",
                                                "vllm.moe_mmq chunked vllm-gguf.md#finding-5",
                                                "llamacpp.mmq exact llama-cpp.md#finding-3",
                                                "llamacpp.mmq upstream llama-cpp.md#finding-3",
                                                "mlx.qmm upstream mlx.md#finding-6",
                                                "mlx.qmm chunked mlx.md#finding-6",
                                                "mlx.gather_qmm upstream mlx.md#finding-6",
                                                "mlx.gather_qmm chunked mlx.md#finding-6"}));
}

// llama-cpp.md finding 3 in the checked-in ledger: every fault of it seen on the H200 is expected
// (the scratch's end at or within the tile loader's over-read below a 2 MiB multiple), and a
// fault where the over-read cannot reach one is not. Those runs allocated exactly what upstream
// asks for: variant `exact` since the allocation variants (kernels/llamacpp/adapter/matmul_kernel.cpp).
TEST(LedgerFinding, TheCheckedInFinding3EntryExpectsEveryFaultSeenOnTheH200AndNoOther) {
  const Ledger l = Ledger::load(std::string(GRIDFUZZ_SOURCE_DIR) + "/properties/known-failures.txt");
  const auto mmq = [&](const char* proj, int tokens, int top_k, int cols) {
    const ConditionLookup at = case_condition_lookup({{"op", "mul_mat_id"}, {"proj", proj}, {"tokens", std::to_string(tokens)},
                                                      {"top_k", std::to_string(top_k)}, {"cols", std::to_string(cols)}},
                                                     "accept", "fault:worker-signal 6 (Aborted)", "safe");
    return l.known_failure("llamacpp.mmq", "exact", FailureKind::fault, at) != nullptr;
  };
  // 2026-11-30: the scratch a multiple of 2 MiB (DeepSeek-V3 gate/up at 4096 and 32768 tokens, the
  // 4096-hidden bank at 2048).
  EXPECT_TRUE(mmq("gate_up", 4096, 8, 7168));
  EXPECT_TRUE(mmq("gate_up", 32768, 8, 7168));
  EXPECT_TRUE(mmq("gate_up", 2048, 8, 4096));
  // 2026-12-03 (evidence/2026-12-03-h200-shared-reference, run3): 4608 and 6144 bytes below one.
  EXPECT_TRUE(mmq("gate_up", 2340, 1, 7168));
  EXPECT_TRUE(mmq("gate_up", 1365, 8, 2048));
  EXPECT_TRUE(mmq("down", 585, 2, 14336));
  // Not where the over-read cannot reach a boundary: 512 KiB below one (DeepSeek-V3 gate/up at 512
  // tokens), 18432 bytes below, a down projection whose 8 rows of padding cover it.
  EXPECT_FALSE(mmq("gate_up", 512, 8, 7168));
  EXPECT_FALSE(mmq("down", 1023, 8, 2048));
  // 17792 bytes below one: within the gate/up over-read, not within a down projection's at top_k
  // 8, whose 8 rows of padding take 8 x 144 bytes off it.
  EXPECT_TRUE(mmq("gate_up", 1805, 8, 128));
  EXPECT_FALSE(mmq("down", 1805, 8, 128));
  EXPECT_FALSE(l.known_failure("llamacpp.mmq", "exact", FailureKind::fault,
                               case_condition_lookup({{"op", "mul_mat"}, {"tokens", "4096"}, {"top_k", "8"}, {"cols", "7168"}},
                                                     "accept", "fault", "safe")))
      << "a dense matmul has no such scratch";
}

// Finding 3 with llama.cpp's own allocation (variant `upstream`: a fresh VMM pool, 2 MiB granules):
// the scratch follows ids_src1, ids_dst and expert_bounds in the pool, so what decides is where the
// scratch ends in the pool, not its size. Observed on one H100 (evidence/2026-12-06-h100-alloc-modes).
TEST(LedgerFinding, TheCheckedInFinding3EntryForUpstreamAllocationFollowsTheVmmPool) {
  const Ledger l = Ledger::load(std::string(GRIDFUZZ_SOURCE_DIR) + "/properties/known-failures.txt");
  const auto mmq = [&](const char* proj, int tokens, int top_k, int cols, int experts) {
    const ConditionLookup at =
        case_condition_lookup({{"op", "mul_mat_id"}, {"proj", proj}, {"tokens", std::to_string(tokens)},
                               {"top_k", std::to_string(top_k)}, {"cols", std::to_string(cols)},
                               {"experts", std::to_string(experts)}},
                              "accept", "fault:worker-signal 6 (Aborted)", "safe");
    return l.known_failure("llamacpp.mmq", "upstream", FailureKind::fault, at) != nullptr;
  };
  // The reproduction's shape (docs/upstream/repro/llamacpp_moe_repro.cpp f3; faulted in llama.cpp's
  // own pool on an H100): 1299 tokens end the scratch 640 bytes below the mapped end; the control,
  // 1300 tokens, 2033280 bytes below.
  EXPECT_TRUE(mmq("gate_up", 1299, 8, 7168, 256));
  EXPECT_FALSE(mmq("gate_up", 1300, 8, 7168, 256));
  // DeepSeek-V3 gate/up at 4096 tokens, the exact allocation's fault: 263296 bytes of ids arrays
  // before the 252 MiB scratch put its end 1833856 bytes below the mapped end.
  EXPECT_FALSE(mmq("gate_up", 4096, 8, 7168, 256));
}

}  // namespace
}  // namespace gridfuzz
