#include "gridfuzz/kernel.hpp"

#include <stdexcept>

#include "gridfuzz/engine/guarded_buffers.hpp"
#include "gridfuzz/engine/seeded_fill.hpp"

namespace gridfuzz {

std::size_t element_bytes(ElementType t) {
  switch (t) {
    case ElementType::f32: case ElementType::i32: case ElementType::u32: return 4;
    case ElementType::f16: case ElementType::bf16: return 2;
    case ElementType::u8: return 1;
  }
  return 1;
}

std::size_t buffer_index(const std::vector<BufferSpec>& specs, std::string_view name) {
  std::string names;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].name == name) return i;
    names += (i ? ", " : "") + specs[i].name;
  }
  throw std::out_of_range("no buffer named '" + std::string(name) + "' (buffers: " + names + ")");
}

std::uint64_t BoundCase::bytes_moved() const {
  std::uint64_t total = 0;
  for (const BufferSpec& b : buffers())  // past 2^64: the largest uint64, not a wrapped small count
    total = saturating_add(total, b.bytes());
  return total;
}

ComparePolicy BoundCase::compare_policy() const { return {true, 0, 0, "bit-exact (the adapter states no tolerance)"}; }

std::vector<SplitPiece> BoundCase::split(const DeviceLimits&) const { return {}; }

void BoundCase::fill_inputs(std::uint64_t seed, const BufferSet& bufs, CUstream stream) const {
  const std::vector<BufferSpec> specs = buffers();
  for (std::size_t i = 0; i < specs.size(); ++i)
    if (specs[i].role == BufferRole::input) fill_seeded(specs[i].type, bufs.ptr(i), specs[i].elements, seed, i, stream);
}

void BoundCase::launch_split_reference(const DeviceLimits&, const BufferSet&, device::Launcher&, CUstream) const {
  throw std::logic_error(
      "split() returned pieces but launch_split_reference() is not overridden: override both, or neither (no split "
      "reference)");
}

std::string Kernel::description() const { return "no description"; }

std::vector<std::string> Kernel::variants() const { return {"default"}; }

std::optional<std::string> Kernel::check(const Params&) const { return std::nullopt; }

}  // namespace gridfuzz
