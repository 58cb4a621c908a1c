#include "fuzz_support.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

namespace gridfuzz::fuzz {
namespace {

using namespace std::string_view_literals;

// Control bytes and the separators of every syntax under test.
constexpr std::array kSpecial{"\n"sv, "\r"sv,   "\r\n"sv, "\0"sv, "\x1b"sv, "\x7f"sv, "\t"sv,
                              "\""sv, ","sv,    "/"sv,    "="sv,  ":"sv,    "#"sv,    " "sv,
                              "\x1b[2J"sv, "\"\""sv, "\v"sv, "\f"sv};
// Invalid UTF-8: a stray byte, a lone continuation, a cut sequence, an overlong '/', a surrogate,
// past U+10FFFF; then valid UTF-8 for C1 controls (NEL, CSI) and a BOM in the middle.
constexpr std::array kBadUtf8{"\xff"sv,         "\xc3"sv,     "\x80"sv,         "\xe2\x82"sv,
                              "\xc0\xaf"sv,     "\xed\xa0\x80"sv, "\xf4\x90\x80\x80"sv, "\xfe\xff"sv,
                              "\xc2\x85"sv,     "\xc2\x9b"sv, "\xef\xbb\xbf"sv};
// Numbers at and past every width the parsers use, and forms a strict parser must refuse.
constexpr std::array kNumbers{"18446744073709551615"sv, "18446744073709551616"sv,
                              "99999999999999999999999999999999999999999"sv,
                              "9223372036854775807"sv, "9223372036854775808"sv,
                              "-9223372036854775808"sv, "-9223372036854775809"sv,
                              "4294967295"sv, "4294967296"sv, "2147483648"sv, "-1"sv, "0"sv, "-0"sv,
                              "00000000000000000000001"sv, "1e999"sv, "1e-999"sv, "nan"sv, "-inf"sv,
                              "0x10"sv, "+1"sv, "1.5"sv, " 1"sv, "1 "sv, ""sv,
                              "340282366920938463463374607431768211456"sv};

struct Span {
  std::size_t begin, end;  // [begin, end)
};

// The field around `at`: between separators (or text ends).
Span field_around(const std::string& text, std::size_t at, std::string_view separators) {
  std::size_t begin = at;
  while (begin > 0 && separators.find(text[begin - 1]) == std::string_view::npos) --begin;
  std::size_t end = at;
  while (end < text.size() && separators.find(text[end]) == std::string_view::npos) ++end;
  return {begin, end};
}

}  // namespace

void showValue(const Mutation& m, std::ostream& out) {
  static constexpr std::array kNames{"flip_bit",       "set_byte",        "insert_special",
                                     "insert_bad_utf8", "replace_field",   "truncate",
                                     "duplicate_field", "delete_field",    "duplicate_line"};
  out << kNames[static_cast<std::size_t>(m.kind)] << "(at=" << m.at << ", arg=" << m.arg << ")";
}

std::string apply(std::string text, const std::vector<Mutation>& mutations, std::string_view separators) {
  for (const Mutation& m : mutations) {
    const std::size_t n = text.size();
    const std::size_t at = n == 0 ? 0 : m.at % n;         // an existing byte
    const std::size_t gap = m.at % (n + 1);                // a place between bytes
    switch (m.kind) {
      case Mutation::Kind::flip_bit:
        if (n) text[at] = static_cast<char>(text[at] ^ (1u << (m.arg % 8)));
        break;
      case Mutation::Kind::set_byte:
        if (n) text[at] = static_cast<char>(m.arg & 0xff);
        break;
      case Mutation::Kind::insert_special:
        text.insert(gap, std::string(kSpecial[m.arg % kSpecial.size()]));
        break;
      case Mutation::Kind::insert_bad_utf8:
        text.insert(gap, std::string(kBadUtf8[m.arg % kBadUtf8.size()]));
        break;
      case Mutation::Kind::replace_field: {
        const Span f = field_around(text, gap, separators);
        text.replace(f.begin, f.end - f.begin, std::string(kNumbers[m.arg % kNumbers.size()]));
        break;
      }
      case Mutation::Kind::truncate:
        text.resize(gap);
        break;
      case Mutation::Kind::duplicate_field:
      case Mutation::Kind::delete_field: {
        Span f = field_around(text, gap, separators);
        if (f.end < text.size()) ++f.end;  // with the separator after it
        else if (f.begin > 0) --f.begin;   // the last field: with the one before it
        if (m.kind == Mutation::Kind::duplicate_field)
          text.insert(f.begin, text.substr(f.begin, f.end - f.begin));
        else
          text.erase(f.begin, f.end - f.begin);
        break;
      }
      case Mutation::Kind::duplicate_line: {
        const Span line = field_around(text, gap, "\n");
        const std::size_t end = std::min(line.end + 1, text.size());
        text.insert(line.begin, text.substr(line.begin, end - line.begin));
        break;
      }
      case Mutation::Kind::count:
        break;
    }
  }
  return text;
}

rc::Gen<std::vector<Mutation>> mutations() {
  const auto one = rc::gen::map(
      rc::gen::tuple(rc::gen::inRange<int>(0, static_cast<int>(Mutation::Kind::count)),
                     // Seeds are a few KiB: 16-bit positions reach every byte, and small ranges
                     // shrink in a few steps.
                     rc::gen::inRange<std::uint32_t>(0, 1u << 16), rc::gen::inRange<std::uint32_t>(0, 256)),
      [](const std::tuple<int, std::uint32_t, std::uint32_t>& t) {
        return Mutation{static_cast<Mutation::Kind>(std::get<0>(t)), std::get<1>(t), std::get<2>(t)};
      });
  // 0 (about one case in seven: the valid seed itself, so the accepting paths are explored too) to 6.
  return rc::gen::mapcat(rc::gen::inRange<std::size_t>(0, 7), [one](std::size_t count) {
    return rc::gen::container<std::vector<Mutation>>(count, one);
  });
}

std::string mutated(const std::vector<std::string>& seeds, std::string_view separators) {
  const auto seed = *rc::gen::inRange<std::size_t>(0, seeds.size());
  const auto edits = *mutations();
  std::string text = apply(seeds[seed], edits, separators);
  RC_LOG() << "input (seed " << seed << "): " << cpp_literal(text) << "\n";
  return text;
}

std::string cpp_literal(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      default: break;
    }
    if (byte < 0x20 || byte >= 0x7f) {
      // Three octal digits: an octal escape never swallows the character after it.
      out += '\\';
      out += static_cast<char>('0' + (byte >> 6));
      out += static_cast<char>('0' + ((byte >> 3) & 7));
      out += static_cast<char>('0' + (byte & 7));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

bool has_control_character(std::string_view text, std::string_view allowed) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if ((byte < 0x20 && allowed.find(text[i]) == std::string_view::npos) || byte == 0x7f) return true;
    if (byte == 0xc2 && i + 1 < text.size()) {
      const auto next = static_cast<unsigned char>(text[i + 1]);
      if (next >= 0x80 && next <= 0x9f) return true;
    }
  }
  return false;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string exception_type_name(const std::exception& e) {
  int status = 0;
  const std::unique_ptr<char, void (*)(void*)> name(
      abi::__cxa_demangle(typeid(e).name(), nullptr, nullptr, &status), std::free);
  return status == 0 && name ? name.get() : typeid(e).name();
}

void check_property(int cases, const std::function<void()>& property) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  const char* rc_params = std::getenv("RC_PARAMS");
  if (!rc_params || std::string_view(rc_params).find("max_success") == std::string_view::npos) {
    int scale = 1;
    if (const char* s = std::getenv("GRIDFUZZ_FUZZ_SCALE")) scale = std::max(1, std::atoi(s));
    params.maxSuccess = cases * scale;
  }
  const auto result = rc::detail::checkProperty(rc::detail::toProperty(property), metadata, params);
  if (!result.template is<rc::detail::SuccessResult>()) {
    std::ostringstream message;
    rc::detail::printResultMessage(result, message);
    FAIL() << message.str() << "\n(rapidcheck seed " << params.seed << "; RC_PARAMS=\"seed=" << params.seed
           << "\" reruns the same cases)";
  }
}

}  // namespace gridfuzz::fuzz
