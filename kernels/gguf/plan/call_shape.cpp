#include "call_shape.hpp"

#include <stdexcept>

#include "gridfuzz/gguf/formats.hpp"

namespace gridfuzz::gguf {
namespace {

QuantType quant_from(const Params& p) {
  const auto t = parse_quant_type(p.get("quant"));
  if (!t || !quant_traits(*t).has_moe_vec)
    throw std::invalid_argument("axis 'quant': '" + p.get("quant") + "' is not a weight type (" + quant_type_list() + ")");
  return *t;
}

OutDtype dtype_from(const Params& p) {
  const std::string& d = p.get("dtype");
  if (d == "f32") return OutDtype::f32;
  if (d == "bf16") return OutDtype::bf16;
  throw std::invalid_argument("axis 'dtype': '" + d + "' is not f32 or bf16");
}

}  // namespace

std::string to_string(OutDtype d) { return d == OutDtype::f32 ? "f32" : "bf16"; }
std::string to_string(Projection p) { return p == Projection::gate_up ? "gate_up" : "down"; }

MoeCallShape moe_shape_from(const Params& p) {
  MoeCallShape s;
  s.tokens = p.get_u64("tokens");
  s.top_k = p.get_u64("top_k");
  s.experts = p.get_u64("experts");
  s.rows = p.get_u64("rows");
  s.cols = p.get_u64("cols");
  s.quant = quant_from(p);
  s.dtype = dtype_from(p);
  const std::string& proj = p.get("proj");
  if (proj == "gate_up") s.proj = Projection::gate_up;
  else if (proj == "down") s.proj = Projection::down;
  else throw std::invalid_argument("axis 'proj': '" + proj + "' is not gate_up or down");
  return s;
}

MoeCallShape mmvq_shape_from(const Params& p) {
  MoeCallShape s;
  s.dense = true;
  s.tokens = p.get_u64("nvecs");
  s.top_k = 1;
  s.experts = 1;
  s.rows = p.get_u64("rows");
  s.cols = p.get_u64("cols");
  s.quant = quant_from(p);
  s.dtype = dtype_from(p);
  return s;
}

std::string moe_shape_problem(const MoeCallShape& s) {
  if (s.tokens == 0 || s.top_k == 0 || s.experts == 0 || s.rows == 0 || s.cols == 0)
    return "every extent must be at least 1";
  const std::uint64_t qk = quant_traits(s.quant).qk;
  if (s.cols % qk != 0)
    return "cols " + std::to_string(s.cols) + " is not a multiple of " + std::string(quant_traits(s.quant).name) +
           "'s block size " + std::to_string(qk);
  if (!s.dense && s.top_k > s.experts)
    return "top_k " + std::to_string(s.top_k) + " > experts " + std::to_string(s.experts);
  return {};
}

}  // namespace gridfuzz::gguf
