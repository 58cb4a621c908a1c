#pragma once
// Device memory owned by one object; freed when it goes out of scope.
#include <cuda.h>

#include <cstddef>
#include <cstdint>

#include "gridfuzz/device/handle.hpp"

namespace gridfuzz::device {

void release_device_memory(CUdeviceptr p);

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t bytes);  // throws CudaError (CUDA_ERROR_OUT_OF_MEMORY) naming the size

  CUdeviceptr get() const { return h_.get(); }
  template <class T>
  T* as() const { return reinterpret_cast<T*>(static_cast<std::uintptr_t>(h_.get())); }
  std::size_t bytes() const { return bytes_; }

  void upload(const void* host, std::size_t bytes, std::size_t offset = 0) const;
  void download(void* host, std::size_t bytes, std::size_t offset = 0) const;
  void fill_bytes(std::uint8_t value) const;
  void fill_words(std::uint32_t value) const;  // bytes() must be a multiple of 4

 private:
  Handle<CUdeviceptr, release_device_memory> h_;
  std::size_t bytes_ = 0;
};

}  // namespace gridfuzz::device
