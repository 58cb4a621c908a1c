#pragma once
// The split reference one case leaves for the next case of the same shape, in one worker
// (BoundCase::reference_same_for_every_variant): its outputs stay on the GPU between the two, so
// a shape's variants run back to back compute the reference once. The worker pool decides which
// cases run back to back (CaseNeed::reference_group); the runner decides whether a kept
// reference may be used (its key) and whether it matched (else it computes a fresh one).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gridfuzz/core/case.hpp"
#include "gridfuzz/engine/guarded_buffers.hpp"
#include "gridfuzz/kernel.hpp"

namespace gridfuzz {

// The cases whose references may be the same: kernel, seed and shape, not the variant. Pure.
std::string reference_group_key(const Case& c);

// The key of one case's reference: its group's key and its buffers (a variant with buffers of
// its own never shares). Pure.
std::string shared_reference_key(const Case& c, const std::vector<BufferSpec>& specs);

// The cases in the order they should run: each reference group's cases together, where its first
// one stood, every other case where it was (stable). Pure.
std::vector<std::size_t> reference_group_order(const std::vector<Case>& cases);

class SharedReference {
 public:
  // Frees what is kept unless it is for `key`: called before a case allocates its own buffers,
  // so a reference of another shape never holds memory beside them.
  void keep_only(const std::string& key);
  // The kept outputs when they are for `key` (handed over: nothing is kept after), else null.
  std::unique_ptr<GuardedBuffers> take(const std::string& key);
  void keep(std::string key, std::unique_ptr<GuardedBuffers> outputs);
  bool holds() const { return outputs_ != nullptr; }

 private:
  std::string key_;
  std::unique_ptr<GuardedBuffers> outputs_;
};

// One case's use of the kept reference: `keep_after` when the next case this worker runs is of
// the same shape (the pool says so in the request).
struct ReferenceReuse {
  SharedReference& kept;
  bool keep_after = false;
};

}  // namespace gridfuzz
