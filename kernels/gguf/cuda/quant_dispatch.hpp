#pragma once
// Calls f.template operator()<T>() for the runtime weight type t: one place that turns the
// QuantType value into the template argument of the kernels.
#include <stdexcept>

#include "gridfuzz/gguf/formats.hpp"

namespace gridfuzz::gguf {

template <class F>
decltype(auto) dispatch_weight_type(QuantType t, F&& f) {
  switch (t) {
    case QuantType::q4_0: return f.template operator()<QuantType::q4_0>();
    case QuantType::q4_1: return f.template operator()<QuantType::q4_1>();
    case QuantType::q5_0: return f.template operator()<QuantType::q5_0>();
    case QuantType::q5_1: return f.template operator()<QuantType::q5_1>();
    case QuantType::q8_0: return f.template operator()<QuantType::q8_0>();
    case QuantType::q2_K: return f.template operator()<QuantType::q2_K>();
    case QuantType::q3_K: return f.template operator()<QuantType::q3_K>();
    case QuantType::q4_K: return f.template operator()<QuantType::q4_K>();
    case QuantType::q5_K: return f.template operator()<QuantType::q5_K>();
    case QuantType::q6_K: return f.template operator()<QuantType::q6_K>();
    case QuantType::iq4_nl: return f.template operator()<QuantType::iq4_nl>();
    case QuantType::iq4_xs: return f.template operator()<QuantType::iq4_xs>();
#if GRIDFUZZ_GGUF_IQ
    case QuantType::iq2_xxs: return f.template operator()<QuantType::iq2_xxs>();
    case QuantType::iq2_xs: return f.template operator()<QuantType::iq2_xs>();
    case QuantType::iq2_s: return f.template operator()<QuantType::iq2_s>();
    case QuantType::iq3_xxs: return f.template operator()<QuantType::iq3_xxs>();
    case QuantType::iq3_s: return f.template operator()<QuantType::iq3_s>();
    case QuantType::iq1_s: return f.template operator()<QuantType::iq1_s>();
    case QuantType::iq1_m: return f.template operator()<QuantType::iq1_m>();
#endif
    default: break;
  }
  throw std::invalid_argument("not a weight quant type");
}

}  // namespace gridfuzz::gguf
