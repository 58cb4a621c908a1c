#include "gridfuzz/core/self_check.hpp"

#include <string>

namespace gridfuzz {

bool wants_self_check(const std::optional<FailureKind>& failure, bool selected) {
  if (!failure) return selected;
  return *failure == FailureKind::mismatch || *failure == FailureKind::reference || *failure == FailureKind::unwritten;
}

bool selected_for_self_check(const Case& c, double share) {
  if (!(share > 0)) return false;  // 0 (and a NaN the CLI never lets through) picks none
  if (share >= 1) return true;
  // The id is already a hash of the replay string; a splitmix64 finalizer spreads its bits so the
  // top 53 of them are a uniform fraction in [0, 1).
  std::uint64_t h = std::stoull(c.id(), nullptr, 16);
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
  h ^= h >> 31;
  const double fraction = static_cast<double>(h >> 11) / static_cast<double>(std::uint64_t{1} << 53);
  return fraction < share;
}

bool wants_reference_again(const std::optional<FailureKind>& failure, std::uint64_t self_differ) {
  return failure == FailureKind::mismatch && self_differ == 0;
}

std::optional<FailureKind> after_self_check(const std::optional<FailureKind>& failure, std::uint64_t self_differ,
                                            std::optional<std::uint64_t> reference_again,
                                            std::uint64_t split_mismatches) {
  if (self_differ > 0) return FailureKind::nondeterministic;
  if (reference_again && *reference_again != split_mismatches) return FailureKind::nondeterministic;
  return failure;
}

}  // namespace gridfuzz
