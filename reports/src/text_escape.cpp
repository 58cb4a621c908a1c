#include "gridfuzz/reports/text_escape.hpp"

#include <algorithm>
#include <cctype>
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

std::string markdown_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  const auto word_char = [&](std::size_t i) {
    if (i >= text.size()) return false;
    const auto c = static_cast<unsigned char>(text[i]);
    return std::isalnum(c) != 0 || c >= 0x80;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      case '&': out += "&amp;"; continue;
      case '<': out += "&lt;"; continue;
      case '>': out += "&gt;"; continue;
      case '\n':
      case '\r': out += ' '; continue;
      case '\\': case '`': case '*': case '[': case ']': case '|': case '#': case '~': case '$':
        out += '\\';
        out += c;
        continue;
      case '_':
        // Inside a word (moe_vec) an underscore starts no emphasis.
        if (!(i > 0 && word_char(i - 1) && word_char(i + 1))) out += '\\';
        out += c;
        continue;
      default: out += c;
    }
  }
  return out;
}

std::string markdown_code(std::string_view text) {
  if (text.empty()) return {};
  std::size_t longest = 0, run = 0;
  for (const char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  // A space inside the fence when the text starts or ends with a backtick (stripped when shown).
  const bool pad = text.front() == '`' || text.back() == '`';
  std::string out = fence + (pad ? " " : "");
  for (const char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out + (pad ? " " : "") + fence;
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
