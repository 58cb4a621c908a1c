#pragma once
#include <memory>

#include "cuda/upstream_call.hpp"
#include "gridfuzz/kernel.hpp"

namespace gridfuzz::llamacpp {

// llamacpp.mmvq or llamacpp.mmq (matmul_kernel.cpp).
std::shared_ptr<const Kernel> make_matmul_kernel(Entry entry);

}  // namespace gridfuzz::llamacpp
