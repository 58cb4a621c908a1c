#include "gridfuzz/core/case.hpp"

#include <charconv>
#include <stdexcept>

namespace gridfuzz {

std::string Case::replay() const {
  return kernel + "/" + variant + "/" + std::to_string(seed) + "/" + params.to_string();
}

std::string Case::id() const {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char ch : replay()) {
    h ^= ch;
    h *= 0x100000001b3ull;
  }
  static const char* hex = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, h >>= 4) out[static_cast<std::size_t>(i)] = hex[h & 15];
  return out;
}

Case Case::parse_replay(const std::string& text) {
  std::string parts[4];
  std::size_t start = 0;
  for (int i = 0; i < 3; ++i) {
    const std::size_t slash = text.find('/', start);
    if (slash == std::string::npos)
      throw std::invalid_argument("replay '" + text + "' is not KERNEL/VARIANT/SEED/PARAMS");
    parts[i] = text.substr(start, slash - start);
    start = slash + 1;
  }
  parts[3] = text.substr(start);
  Case c;
  c.kernel = parts[0];
  c.variant = parts[1];
  if (c.kernel.empty() || c.variant.empty()) throw std::invalid_argument("replay '" + text + "': empty kernel or variant");
  const auto [ptr, ec] = std::from_chars(parts[2].data(), parts[2].data() + parts[2].size(), c.seed);
  if (parts[2].empty() || ec != std::errc() || ptr != parts[2].data() + parts[2].size())
    throw std::invalid_argument("replay '" + text + "': seed '" + parts[2] + "' is not a whole number");
  c.params = Params::parse(parts[3]);
  return c;
}

}  // namespace gridfuzz
