#include "gridfuzz/kernel.hpp"

namespace gridfuzz {

std::size_t element_bytes(ElementType t) {
  switch (t) {
    case ElementType::f32: case ElementType::i32: case ElementType::u32: return 4;
    case ElementType::f16: case ElementType::bf16: return 2;
    case ElementType::u8: return 1;
  }
  return 1;
}

}  // namespace gridfuzz
