#include "gridfuzz/reports/text_escape.hpp"

#include <cstdint>
#include <cstdio>
#include <optional>

namespace gridfuzz::reports {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

struct CodePoint {
  std::uint32_t value;
  std::size_t length;
};

// The well-formed UTF-8 sequence at text[i], if there is one (RFC 3629: no overlong forms, no
// surrogates, nothing past U+10FFFF).
std::optional<CodePoint> decode_at(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return CodePoint{lead, 1};
  std::size_t length = 0;
  std::uint32_t value = 0, min = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2, value = lead & 0x1F, min = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, value = lead & 0x0F, min = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, value = lead & 0x07, min = 0x10000;
  } else {
    return std::nullopt;
  }
  if (i + length > text.size()) return std::nullopt;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return std::nullopt;
    value = (value << 6) | (byte(i + k) & 0x3F);
  }
  if (value < min || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return std::nullopt;
  return CodePoint{value, length};
}

bool is_control(std::uint32_t cp) { return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F); }

std::string hex_byte(unsigned char b) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02X", b);
  return buf;
}

// Calls on_valid(code point, its bytes) or on_invalid(byte) for each piece of the text in order.
template <typename Valid, typename Invalid>
void for_each_piece(std::string_view text, Valid on_valid, Invalid on_invalid) {
  for (std::size_t i = 0; i < text.size();) {
    if (const auto cp = decode_at(text, i)) {
      on_valid(cp->value, text.substr(i, cp->length));
      i += cp->length;
    } else {
      on_invalid(static_cast<unsigned char>(text[i]));
      ++i;
    }
  }
}

}  // namespace

std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for_each_piece(
      text, [&](std::uint32_t, std::string_view bytes) { out += bytes; },
      [&](unsigned char) { out += kReplacement; });
  return out;
}

bool is_printable_utf8(std::string_view text) {
  bool ok = true;
  for_each_piece(
      text, [&](std::uint32_t cp, std::string_view) { ok = ok && !is_control(cp); },
      [&](unsigned char) { ok = false; });
  return ok;
}

std::string gnuplot_string(std::string_view text) {
  std::string out = "'";
  for_each_piece(
      text,
      [&](std::uint32_t cp, std::string_view bytes) {
        if (is_control(cp))
          out += ' ';
        else if (cp == '\'')
          out += "''";
        else
          out += bytes;
      },
      [&](unsigned char) { out += kReplacement; });
  return out + "'";
}

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for_each_piece(
      text,
      [&](std::uint32_t cp, std::string_view bytes) {
        switch (cp) {
          case '&': out += "&amp;"; return;
          case '<': out += "&lt;"; return;
          case '>': out += "&gt;"; return;
          case '"': out += "&quot;"; return;
          case '\'': out += "&apos;"; return;
          case '\t': out += "&#9;"; return;
          case '\n': out += "&#10;"; return;
          case '\r': out += "&#13;"; return;
          default: break;
        }
        // C0 controls are not XML 1.0 characters at all; DEL and C1 are, but "discouraged".
        out += is_control(cp) ? kReplacement : bytes;
      },
      [&](unsigned char) { out += kReplacement; });
  return out;
}

std::string terminal_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for_each_piece(
      text,
      [&](std::uint32_t cp, std::string_view bytes) {
        if (is_control(cp))
          for (const char b : bytes) out += hex_byte(static_cast<unsigned char>(b));
        else
          out += bytes;
      },
      [&](unsigned char b) { out += hex_byte(b); });
  return out;
}

std::string terminal_lines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t end = text.find('\n', start);
    out += terminal_text(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

}  // namespace gridfuzz::reports
