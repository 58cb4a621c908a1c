// The host side of sharing a split reference among the variants of one shape: which cases may
// share (their keys), the order the executors run them in, and the request that tells a worker
// to keep the reference for the next case.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gridfuzz/engine/shared_reference.hpp"
#include "gridfuzz/engine/worker_protocol.hpp"

namespace gridfuzz {
namespace {

Case make_case(const std::string& kernel, const std::string& variant, const std::string& tokens, std::uint64_t seed = 1) {
  Params p;
  p.set("tokens", tokens);
  p.set("rows", "4096");
  return Case{kernel, variant, p, seed};
}

const std::vector<BufferSpec> kSpecs{{"x", BufferRole::input, ElementType::f32, 64},
                                     {"dst", BufferRole::output, ElementType::f32, 32}};

TEST(SharedReference, TheKeyIsTheKernelShapeSeedAndBuffersNotTheVariant) {
  const std::string key = shared_reference_key(make_case("k", "legacy", "8"), kSpecs);
  EXPECT_EQ(shared_reference_key(make_case("k", "fixed", "8"), kSpecs), key);
  EXPECT_NE(shared_reference_key(make_case("other", "legacy", "8"), kSpecs), key);
  EXPECT_NE(shared_reference_key(make_case("k", "legacy", "9"), kSpecs), key);
  EXPECT_NE(shared_reference_key(make_case("k", "legacy", "8", 2), kSpecs), key) << "another seed, other inputs";
  std::vector<BufferSpec> bigger = kSpecs;
  bigger[1].elements = 33;
  EXPECT_NE(shared_reference_key(make_case("k", "legacy", "8"), bigger), key);
  std::vector<BufferSpec> other_type = kSpecs;
  other_type[1].type = ElementType::f16;
  EXPECT_NE(shared_reference_key(make_case("k", "legacy", "8"), other_type), key);
  EXPECT_EQ(reference_group_key(make_case("k", "legacy", "8")), reference_group_key(make_case("k", "fixed", "8")));
  EXPECT_NE(reference_group_key(make_case("k", "legacy", "8")), reference_group_key(make_case("k", "legacy", "9")));
}

TEST(SharedReference, AShapesVariantsRunTogetherWhereItsFirstCaseStood) {
  const std::vector<Case> cases{make_case("a", "legacy", "1"), make_case("b", "v", "1"), make_case("a", "legacy", "2"),
                                make_case("a", "fixed", "1"),  make_case("a", "fixed", "2"), make_case("b", "w", "1"),
                                make_case("c", "v", "1")};
  EXPECT_EQ(reference_group_order(cases), (std::vector<std::size_t>{0, 3, 1, 5, 2, 4, 6}));
  EXPECT_TRUE(reference_group_order({}).empty());
}

// The request as the client writes it, read back as the worker reads it.
CaseRequest through_pipe(const std::string& line) {
  std::FILE* f = std::tmpfile();
  EXPECT_NE(f, nullptr);
  std::fputs(line.c_str(), f);
  std::rewind(f);
  std::optional<CaseRequest> got;
  try {
    got = read_case_request(f);
  } catch (...) {
    std::fclose(f);
    throw;
  }
  EXPECT_FALSE(read_case_request(f).has_value()) << "one line, one request";
  std::fclose(f);
  return got.value();
}

TEST(WorkerProtocol, ARequestCarriesWhetherToKeepTheReference) {
  const std::string replay = make_case("gguf.moe_vec", "fixed", "98303").replay();
  for (const bool keep : {false, true}) {
    const CaseRequest back = through_pipe(case_request_line({replay, keep}));
    EXPECT_EQ(back.replay, replay);
    EXPECT_EQ(back.keep_reference, keep);
  }
  EXPECT_THROW(through_pipe("CASE-KEEP " + replay + "\n"), std::runtime_error);
  EXPECT_THROW(through_pipe("case " + replay + "\n"), std::runtime_error);
}

}  // namespace
}  // namespace gridfuzz
