#pragma once
// JSON for `--json` output (list, devices, diff, the sweep summary): one small streaming writer,
// so every string goes through one escaping function. Strings are made valid UTF-8 first (an
// invalid byte becomes U+FFFD, as in every other output target: text_escape.hpp), then `"`, `\`
// and every control character are escaped. Numbers that JSON cannot hold (NaN, infinities) are
// written as null. The output is one line, ended by a newline.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "gridfuzz/reports/text_escape.hpp"

namespace gridfuzz::app {

// A JSON string literal, quotes included.
inline std::string json_string(std::string_view text) {
  const std::string utf8 = reports::valid_utf8(text);
  std::string out = "\"";
  for (const char ch : utf8) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += ch;
        }
    }
  }
  out += '"';
  return out;
}

class JsonWriter {
 public:
  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }

  // The key of the next value in the current object.
  JsonWriter& key(std::string_view name) {
    separate();
    out_ += json_string(name);
    out_ += ':';
    after_key_ = true;
    return *this;
  }

  JsonWriter& value(std::string_view text) { return raw(json_string(text)); }
  JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(bool b) { return raw(b ? "true" : "false"); }
  JsonWriter& value(int n) { return raw(std::to_string(n)); }
  JsonWriter& value(long n) { return raw(std::to_string(n)); }
  JsonWriter& value(long long n) { return raw(std::to_string(n)); }
  JsonWriter& value(unsigned n) { return raw(std::to_string(n)); }
  JsonWriter& value(unsigned long n) { return raw(std::to_string(n)); }
  JsonWriter& value(unsigned long long n) { return raw(std::to_string(n)); }
  JsonWriter& value(double d) {
    if (!std::isfinite(d)) return null();
    char buf[32];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d);
    return raw(ec == std::errc() ? std::string(buf, end) : std::string("null"));
  }
  JsonWriter& null() { return raw("null"); }

  // key(name).value(v) in one call.
  template <typename T>
  JsonWriter& field(std::string_view name, const T& v) {
    key(name);
    return value(v);
  }

  // A list of strings as an array.
  JsonWriter& value(const std::vector<std::string>& items) {
    begin_array();
    for (const auto& s : items) value(s);
    return end_array();
  }

  // The document, with a final newline (once every container is closed).
  std::string str() const { return out_ + "\n"; }

 private:
  void separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (!first_.empty()) {
      if (!first_.back()) out_ += ',';
      first_.back() = false;
    }
  }
  JsonWriter& raw(std::string_view text) {
    separate();
    out_ += text;
    return *this;
  }
  JsonWriter& open(char bracket) {
    separate();
    out_ += bracket;
    first_.push_back(true);
    return *this;
  }
  JsonWriter& close(char bracket) {
    out_ += bracket;
    if (!first_.empty()) first_.pop_back();
    return *this;
  }

  std::string out_;
  std::vector<bool> first_;  // per open container: nothing written in it yet
  bool after_key_ = false;
};

}  // namespace gridfuzz::app
