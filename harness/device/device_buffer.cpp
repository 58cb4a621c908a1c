#include "gridfuzz/device/device_buffer.hpp"

#include <stdexcept>
#include <string>

#include "gridfuzz/device/cuda_error.hpp"
#include "gridfuzz/device/driver_api.hpp"

namespace gridfuzz::device {

void release_device_memory(CUdeviceptr p) { driver().cuMemFree(p); }

DeviceBuffer::DeviceBuffer(std::size_t bytes) : bytes_(bytes) {
  CUdeviceptr p{};
  check(driver().cuMemAlloc(&p, bytes == 0 ? 1 : bytes), "cuMemAlloc(" + std::to_string(bytes) + " bytes)");
  h_ = Handle<CUdeviceptr, release_device_memory>(p);
}

static void check_range(std::size_t offset, std::size_t bytes, std::size_t size, const char* what) {
  if (offset > size || bytes > size - offset)
    throw std::out_of_range(std::string(what) + ": range [" + std::to_string(offset) + ", +" +
                            std::to_string(bytes) + ") outside a buffer of " + std::to_string(size));
}

void DeviceBuffer::upload(const void* host, std::size_t bytes, std::size_t offset) const {
  check_range(offset, bytes, bytes_, "upload");
  check(driver().cuMemcpyHtoD(get() + offset, host, bytes), "cuMemcpyHtoD(" + std::to_string(bytes) + " bytes)");
}

void DeviceBuffer::download(void* host, std::size_t bytes, std::size_t offset) const {
  check_range(offset, bytes, bytes_, "download");
  check(driver().cuMemcpyDtoH(host, get() + offset, bytes), "cuMemcpyDtoH(" + std::to_string(bytes) + " bytes)");
}

void DeviceBuffer::fill_bytes(std::uint8_t value) const {
  check(driver().cuMemsetD8(get(), value, bytes_), "cuMemsetD8");
}

void DeviceBuffer::fill_words(std::uint32_t value) const {
  if (bytes_ % 4 != 0) throw std::invalid_argument("fill_words on a buffer of " + std::to_string(bytes_) + " bytes");
  check(driver().cuMemsetD32(get(), value, bytes_ / 4), "cuMemsetD32");
}

}  // namespace gridfuzz::device
