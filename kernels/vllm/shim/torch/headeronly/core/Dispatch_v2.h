#pragma once
// gridfuzz stand-in (kernels/vllm/shim/README.md): THO_DISPATCH_V2 runs BODY (a lambda) with
// `scalar_t` bound to the C++ type of TYPE, for the floating types vLLM's GGUF code dispatches.
#include <stdexcept>
#include <string>

#include "torch/headeronly/core/ScalarType.h"
#include "torch/headeronly/util/BFloat16.h"
#include "torch/headeronly/util/Half.h"

#define AT_WRAP(...) __VA_ARGS__

#define THO_DISPATCH_V2(TYPE, NAME, BODY, ...)                                       \
  [&] {                                                                              \
    switch (TYPE) {                                                                  \
      case torch::headeronly::ScalarType::Float: {                                   \
        using scalar_t = float;                                                      \
        return BODY();                                                               \
      }                                                                              \
      case torch::headeronly::ScalarType::Half: {                                    \
        using scalar_t = c10::Half;                                                  \
        return BODY();                                                               \
      }                                                                              \
      case torch::headeronly::ScalarType::BFloat16: {                                \
        using scalar_t = c10::BFloat16;                                              \
        return BODY();                                                               \
      }                                                                              \
      default:                                                                       \
        throw std::invalid_argument(std::string(NAME) + ": unsupported scalar type"); \
    }                                                                                \
  }()
