#include "gridfuzz/engine/guarded_buffers.hpp"

#include <stdexcept>

#include "gridfuzz/device/cuda_error.hpp"
#include "gridfuzz/device/driver_api.hpp"

namespace gridfuzz {

std::uint32_t poison_pattern(ElementType t) {
  switch (t) {
    case ElementType::f32: return 0x7FC0DEADu;   // quiet NaN, payload 0xDEAD
    case ElementType::f16: return 0x7E5Au;       // NaN
    case ElementType::bf16: return 0x7FDAu;      // NaN
    case ElementType::i32:
    case ElementType::u32: return 0xDEADBEEFu;
    case ElementType::u8: return 0xDBu;
  }
  return 0;
}

std::uint64_t GuardedBuffers::footprint(const std::vector<BufferSpec>& specs) {
  std::uint64_t total = 0;
  for (const auto& s : specs) {
    total = saturating_add(total, saturating_add(s.bytes(), 2 * kGuardBytes));
  }
  return total;
}

GuardedBuffers::GuardedBuffers(std::vector<BufferSpec> specs) : specs_(std::move(specs)) {
  for (const auto& s : specs_) {
    const std::uint64_t guarded = saturating_add(s.bytes(), 2 * kGuardBytes);
    if (guarded == UINT64_MAX)  // the runner skips such a case first (case_device_need)
      throw std::overflow_error("buffer '" + s.name + "': " + std::to_string(s.elements) +
                                " elements and their guards are more than 2^64 bytes");
    device::DeviceBuffer b(guarded);
    b.fill_bytes(kGuardByte);
    storage_.push_back(std::move(b));
  }
  // cuMemsetD8 returns before it is done and runs on the legacy stream, which the harness'
  // non-blocking stream does not wait for: an input fill right after would race it, and the guard
  // bytes land on some of the inputs (affine.qmm hopper's one call and split reference agreed on
  // wrong outputs, and the second call, after a refill, differed from them everywhere:
  // evidence/2026-12-03-h200-wrap-crossings, run3).
  device::check(device::driver().cuCtxSynchronize(), "cuCtxSynchronize after laying the guard zones of " +
                                                         std::to_string(specs_.size()) + " buffer(s)");
}

CUdeviceptr GuardedBuffers::ptr(std::size_t i) const { return storage_.at(i).get() + kGuardBytes; }
std::uint64_t GuardedBuffers::bytes(std::size_t i) const { return specs_.at(i).bytes(); }

namespace {

// The copies run on the legacy stream, which does not wait for the harness' non-blocking stream:
// without this a write right after a fill kernel (or a read right after the launch) races it.
void wait_for_queued_work(const std::string& buffer) {
  device::check(device::driver().cuCtxSynchronize(), "cuCtxSynchronize before a host copy of buffer '" + buffer + "'");
}

}  // namespace

void GuardedBuffers::read(std::size_t i, std::uint64_t offset, void* host, std::uint64_t n) const {
  if (offset > bytes(i) || n > bytes(i) - offset)
    throw std::out_of_range("read past the end of buffer '" + specs_.at(i).name + "'");
  wait_for_queued_work(specs_.at(i).name);
  storage_[i].download(host, n, kGuardBytes + offset);
}

void GuardedBuffers::write(std::size_t i, std::uint64_t offset, const void* host, std::uint64_t n) const {
  if (offset > bytes(i) || n > bytes(i) - offset)
    throw std::out_of_range("write past the end of buffer '" + specs_.at(i).name + "'");
  wait_for_queued_work(specs_.at(i).name);
  storage_[i].upload(host, n, kGuardBytes + offset);
}

void GuardedBuffers::poison_outputs() const {
  const auto& api = device::driver();
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    const BufferSpec& s = specs_[i];
    if (s.role != BufferRole::output) continue;
    const std::uint32_t p = poison_pattern(s.type);
    switch (element_bytes(s.type)) {
      case 4: device::check(api.cuMemsetD32(ptr(i), p, s.elements), "poison " + s.name); break;
      case 2: device::check(api.cuMemsetD16(ptr(i), static_cast<unsigned short>(p), s.elements), "poison " + s.name); break;
      default: device::check(api.cuMemsetD8(ptr(i), static_cast<unsigned char>(p), s.elements), "poison " + s.name);
    }
  }
  // As the guards: done before whatever the caller queues next, on whichever stream.
  device::check(api.cuCtxSynchronize(), "cuCtxSynchronize after poisoning the outputs");
}

std::vector<std::string> GuardedBuffers::guard_violations() const {
  std::vector<std::string> bad;
  std::vector<std::uint8_t> zone(kGuardBytes);
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    for (const std::uint64_t at : {std::uint64_t{0}, kGuardBytes + bytes(i)}) {
      storage_[i].download(zone.data(), kGuardBytes, at);
      for (std::uint8_t b : zone)
        if (b != kGuardByte) {
          bad.push_back(specs_[i].name + (at == 0 ? " (before)" : " (after)"));
          break;
        }
    }
  }
  return bad;
}

SwappedOutputs::SwappedOutputs(const GuardedBuffers& original, const GuardedBuffers& outputs)
    : original_(original), outputs_(outputs) {}

const BufferSet& SwappedOutputs::pick(std::size_t i) const {
  return original_.specs().at(i).role == BufferRole::output ? static_cast<const BufferSet&>(outputs_)
                                                            : static_cast<const BufferSet&>(original_);
}
CUdeviceptr SwappedOutputs::ptr(std::size_t i) const { return pick(i).ptr(i); }
std::uint64_t SwappedOutputs::bytes(std::size_t i) const { return pick(i).bytes(i); }
void SwappedOutputs::read(std::size_t i, std::uint64_t o, void* h, std::uint64_t n) const { pick(i).read(i, o, h, n); }
void SwappedOutputs::write(std::size_t i, std::uint64_t o, const void* h, std::uint64_t n) const { pick(i).write(i, o, h, n); }

}  // namespace gridfuzz
