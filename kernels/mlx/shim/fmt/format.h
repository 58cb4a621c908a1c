#pragma once
// Stand-in for {fmt}'s fmt::format, enough for MLX's host code: each "{}" is replaced by the next
// argument, printed as std::ostream prints it (bool as "true"/"false", as {fmt} does). Other
// format specs are not supported (MLX's quantized host code uses none).
#include <sstream>
#include <string>
#include <string_view>

namespace fmt {

template <class... Args>
std::string format(std::string_view pattern, const Args&... args) {
  std::ostringstream out;
  out << std::boolalpha;
  std::size_t pos = 0;
  auto next = [&](const auto& value) {
    const std::size_t open = pattern.find("{}", pos);
    if (open == std::string_view::npos) return;
    out << pattern.substr(pos, open - pos) << value;
    pos = open + 2;
  };
  (next(args), ...);
  out << pattern.substr(pos);
  return out.str();
}

}  // namespace fmt
