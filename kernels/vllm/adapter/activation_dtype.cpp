#include "activation_dtype.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "gridfuzz/gguf/formats.hpp"

namespace gridfuzz::vllm {

ScalarKind parse_scalar_kind(const std::string& name) {
  if (name == "f32") return ScalarKind::f32;
  if (name == "f16") return ScalarKind::f16;
  if (name == "bf16") return ScalarKind::bf16;
  throw std::invalid_argument("axis 'dtype': '" + name + "' is not f32, f16 or bf16");
}

ScalarKind scalar_kind_from(const Params& p) { return parse_scalar_kind(p.get("dtype")); }

ElementType element_type(ScalarKind k) {
  switch (k) {
    case ScalarKind::f32: return ElementType::f32;
    case ScalarKind::f16: return ElementType::f16;
    case ScalarKind::bf16: return ElementType::bf16;
  }
  throw std::invalid_argument("vllm: unknown scalar kind");
}

AxisSpec dtype_axis() {
  return {"dtype",
          "activation and output dtype, tied as upstream ties them (VLLM_DISPATCH_FLOATING_TYPES, "
          "gguf_kernel.cu:116/:306/:408): f32, f16, bf16",
          "f32",
          {"f32", "f16", "bf16"},
          0,
          0};
}

Params with_f32_shape_dtype(const Params& p) {
  Params q = p;
  q.set("dtype", "f32");
  return q;
}

float widen16(ScalarKind k, std::uint16_t bits) {
  switch (k) {
    case ScalarKind::f16: return gguf::half_bits_to_float(bits);
    case ScalarKind::bf16: {
      const std::uint32_t w = static_cast<std::uint32_t>(bits) << 16;
      float f = 0;
      std::memcpy(&f, &w, 4);
      return f;
    }
    case ScalarKind::f32: break;
  }
  throw std::invalid_argument("vllm: widen16 of a 32-bit type");
}

double output_rounding_bound(ScalarKind k, double magnitude) {
  switch (k) {
    case ScalarKind::f32: return 0;
    case ScalarKind::f16: return std::ldexp(magnitude, -11) + std::ldexp(1.0, -25);
    case ScalarKind::bf16: return std::ldexp(magnitude, -8) + std::ldexp(1.0, -134);
  }
  throw std::invalid_argument("vllm: unknown scalar kind");
}

}  // namespace gridfuzz::vllm
