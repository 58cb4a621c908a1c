#pragma once
// The case's device buffers, each with a guard zone of a known byte pattern before and after it,
// and outputs poisoned with a NaN/sentinel pattern before every launch. A changed guard byte is an
// out-of-bounds write; a poison value that survives is an unwritten output.
#include <string>
#include <vector>

#include "gridfuzz/checked_math.hpp"
#include "gridfuzz/device/device_buffer.hpp"
#include "gridfuzz/kernel.hpp"

namespace gridfuzz {

// a+b, or the largest uint64 when it does not fit: a size past 2^64 bytes is "more than any
// device", never a wrapped small one.
inline std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) { return checked_add(a, b).value_or(UINT64_MAX); }

// The poison bit pattern of each element type (a NaN with a payload no arithmetic produces, or a
// sentinel for integers), in the low bits.
std::uint32_t poison_pattern(ElementType t);

class GuardedBuffers : public BufferSet {
 public:
  static constexpr std::uint64_t kGuardBytes = 4096;
  static constexpr std::uint8_t kGuardByte = 0xA5;

  // Allocates and lays the guard zones, done when it returns (any stream may use the buffers);
  // throws CudaError on OOM.
  explicit GuardedBuffers(std::vector<BufferSpec> specs);

  using BufferSet::ptr;
  CUdeviceptr ptr(std::size_t index) const override;
  std::uint64_t bytes(std::size_t index) const override;
  void read(std::size_t index, std::uint64_t offset, void* host, std::uint64_t bytes) const override;
  void write(std::size_t index, std::uint64_t offset, const void* host, std::uint64_t bytes) const override;
  std::size_t index_of(std::string_view name) const override { return buffer_index(specs_, name); }

  const std::vector<BufferSpec>& specs() const { return specs_; }
  void poison_outputs() const;  // done when it returns
  // Names of buffers whose guard zones no longer hold the pattern (empty when all intact).
  std::vector<std::string> guard_violations() const;

  // Total device bytes `specs` need with their guards; the largest uint64 when that is past 2^64
  // (a wrapped sum would pass for a small case).
  static std::uint64_t footprint(const std::vector<BufferSpec>& specs);

 private:
  std::vector<BufferSpec> specs_;
  std::vector<device::DeviceBuffer> storage_;
};

// Output buffers of `original` swapped for separate copies (for the split reference), inputs
// shared.
class SwappedOutputs : public BufferSet {
 public:
  SwappedOutputs(const GuardedBuffers& original, const GuardedBuffers& outputs);
  using BufferSet::ptr;
  CUdeviceptr ptr(std::size_t index) const override;
  std::uint64_t bytes(std::size_t index) const override;
  void read(std::size_t index, std::uint64_t offset, void* host, std::uint64_t bytes) const override;
  void write(std::size_t index, std::uint64_t offset, const void* host, std::uint64_t bytes) const override;
  std::size_t index_of(std::string_view name) const override { return original_.index_of(name); }

 private:
  const BufferSet& pick(std::size_t index) const;
  const GuardedBuffers& original_;
  const GuardedBuffers& outputs_;
};

}  // namespace gridfuzz
