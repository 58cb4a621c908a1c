#include "gridfuzz/formats/gguf/quant_type_names.hpp"

#include <array>
#include <cctype>

namespace gridfuzz::formats::gguf {
namespace {

constexpr std::array<QuantType, kQuantTypeCount> kAll = {
    QuantType::q4_0, QuantType::q4_1, QuantType::q5_0, QuantType::q5_1, QuantType::q8_0,
    QuantType::q8_1, QuantType::q2_K, QuantType::q3_K, QuantType::q4_K, QuantType::q5_K,
    QuantType::q6_K, QuantType::iq4_nl, QuantType::iq4_xs,
#if GRIDFUZZ_GGUF_IQ
    QuantType::iq1_s, QuantType::iq1_m, QuantType::iq2_xxs, QuantType::iq2_xs, QuantType::iq2_s,
    QuantType::iq3_xxs, QuantType::iq3_s,
#endif
};

constexpr std::array<QuantType, kQuantTypeCount - 1> kWeights = {
    QuantType::q4_0, QuantType::q4_1, QuantType::q5_0, QuantType::q5_1, QuantType::q8_0,
    QuantType::q2_K, QuantType::q3_K, QuantType::q4_K, QuantType::q5_K, QuantType::q6_K,
    QuantType::iq4_nl, QuantType::iq4_xs,
#if GRIDFUZZ_GGUF_IQ
    QuantType::iq1_s, QuantType::iq1_m, QuantType::iq2_xxs, QuantType::iq2_xs, QuantType::iq2_s,
    QuantType::iq3_xxs, QuantType::iq3_s,
#endif
};

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

}  // namespace

std::span<const QuantType> all_quant_types() { return kAll; }
std::span<const QuantType> weight_quant_types() { return kWeights; }

std::string_view to_string(QuantType t) {
  const QuantTraits tr = quant_traits(t);
  return tr.qk == 0 ? std::string_view{} : std::string_view{tr.name};
}

std::optional<QuantType> parse_quant_type(std::string_view name) {
  for (QuantType t : kAll) {
    if (equal_ignoring_case(name, quant_traits(t).name)) return t;
  }
  return std::nullopt;
}

std::string quant_type_list() {
  std::string s;
  for (QuantType t : kAll) {
    if (!s.empty()) s += ", ";
    s += quant_traits(t).name;
  }
  return s;
}

}  // namespace gridfuzz::formats::gguf
