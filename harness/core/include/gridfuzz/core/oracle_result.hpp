#pragma once
// What the oracle found for a case whose launches were all accepted, as a value. Its text (the
// CSV's `oracle` column, reports/SCHEMA.md) comes from to_string only (spelled in vocabulary.cpp):
//   -                                      no oracle ran (a refusal, a fault, static)
//   guard:<buffer>                         a guard zone around <buffer> changed (checks stop there)
//   reference-fault:<err> | reference-refused   the split reference itself failed
//   split:<exact|tol>:<n> unwritten:<u> cpu:<ok>/<total>   every check ran
//   split:none unwritten:<u> cpu:<ok>/<total>   every check ran; the kernel has no split reference
//     ... self:same | self:differ:<d>      and the production call was made again on the same
//                                          inputs: the same outputs, or <d> elements differ
//     ... self:same ref-again:<m>          and, the outputs differing from the split reference,
//                                          the reference made again: <m> elements differ from it
//   oracle-fault                           a device error inside the oracle
#include <cstdint>
#include <optional>
#include <string>

#include "gridfuzz/core/vocabulary.hpp"

namespace gridfuzz {

struct OracleResult {
  using Kind = OracleKind;
  Kind kind = Kind::not_run;
  std::string where;                 // guard: the buffer; reference_fault: the CUDA error
  bool exact = true;                 // the split comparison's policy (exact or tolerance)
  std::uint64_t split_mismatches = 0;
  double max_abs_err = 0;            // over the outputs, against the split reference
  std::uint64_t unwritten = 0;       // output elements still holding the poison
  std::uint64_t cpu_ok = 0, cpu_total = 0;  // CPU reference samples within tolerance, of all
  // False when the kernel has no split reference (BoundCase::split() gives no piece): nothing was
  // compared with one, so split_mismatches and max_abs_err mean nothing.
  bool split_reference = true;
  // The self-check (self_check.hpp): output elements that differ between the production call and
  // the same call made again on the same inputs; nullopt when it was not made.
  std::optional<std::uint64_t> self_differ = std::nullopt;
  // The split reference made a second time (wants_reference_again): output elements that differ
  // from it; nullopt when it was not made.
  std::optional<std::uint64_t> reference_again = std::nullopt;

  std::string to_string() const;
  // "self:same", "self:differ:<d>", "self:same ref-again:<m>", or empty when no self-check was made.
  std::string self_check_text() const;
  // Whether the comparison columns (mismatches, max_abs_err) mean something: the oracle ran on the
  // outputs, whether or not it reached the split comparison, and the kernel has a split reference.
  bool has_comparison() const {
    return kind != Kind::not_run && kind != Kind::device_fault && !(kind == Kind::compared && !split_reference);
  }
  bool operator==(const OracleResult&) const = default;
};

}  // namespace gridfuzz
