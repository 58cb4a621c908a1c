#pragma once
// Host-side names of the quant types: the list, parsing (CLI `--set quant=q4_K`) and formatting.
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "gridfuzz/formats/gguf/quant_type.hpp"

namespace gridfuzz::formats::gguf {

// Every implemented type, in ggml id order.
std::span<const QuantType> all_quant_types();

// Only the types that have a moe_vec launcher (all but q8_1).
std::span<const QuantType> weight_quant_types();

// ggml's name ("q4_K"); the empty view for a value outside the enum.
std::string_view to_string(QuantType t);

// Accepts ggml's names case-insensitively ("q4_K", "Q4_K", "q4_k"); nullopt for anything else.
std::optional<QuantType> parse_quant_type(std::string_view name);

// "q4_0, q4_1, ..." for error messages.
std::string quant_type_list();

}  // namespace gridfuzz::formats::gguf
