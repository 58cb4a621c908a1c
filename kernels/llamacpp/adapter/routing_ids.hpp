#pragma once
// Expert ids as a top-k router makes them: per token, top_k distinct experts. ggml's MUL_MAT_ID
// takes the ids of a router (ggml_top_k / argsort), never a repeated expert within a token;
// llama.cpp's MMQ path relies on it (mm_ids_helper lists each (expert, token) once, mmid.cu:23-110):
// a repeated id leaves outputs unwritten (seen on the H200, docs/upstream/llama-cpp.md). Pure host
// code; the first slot of token 0 is always the highest expert, so the end of the weight bank is
// read in every case.
#include <cstdint>
#include <vector>

namespace gridfuzz::llamacpp {

// tokens * top_k ids, row-major [token][slot]; top_k <= experts (the kernels' check()).
std::vector<std::int32_t> routing_ids(std::uint64_t tokens, std::uint64_t top_k, std::uint64_t experts,
                                      std::uint64_t seed);

}  // namespace gridfuzz::llamacpp
