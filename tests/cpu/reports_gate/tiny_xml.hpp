#pragma once
// A tiny, strict XML reader for checking the JUnit output: elements, double-quoted attributes,
// text, the five predefined entities and the <?xml?> prolog. Anything else (a raw '<' or '&' in
// text or an attribute, mismatched tags, trailing garbage) throws, so malformed output fails.
#include <cctype>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace gridfuzz::reports::testing {

struct XmlElement {
  std::string name;
  std::map<std::string, std::string> attributes;
  std::vector<XmlElement> children;
  std::string text;

  std::vector<const XmlElement*> all(const std::string& tag) const {
    std::vector<const XmlElement*> found;
    collect(tag, found);
    return found;
  }
  const std::string& attr(const std::string& key) const {
    const auto it = attributes.find(key);
    if (it == attributes.end()) throw std::runtime_error("<" + name + "> has no attribute " + key);
    return it->second;
  }

 private:
  void collect(const std::string& tag, std::vector<const XmlElement*>& found) const {
    if (name == tag) found.push_back(this);
    for (const auto& c : children) c.collect(tag, found);
  }
};

class TinyXmlParser {
 public:
  explicit TinyXmlParser(const std::string& text) : s_(text) {}

  XmlElement parse() {
    skip_space();
    if (s_.compare(i_, 5, "<?xml") == 0) {
      const auto end = s_.find("?>", i_);
      if (end == std::string::npos) fail("unterminated prolog");
      i_ = end + 2;
    }
    skip_space();
    XmlElement root = element();
    skip_space();
    if (i_ != s_.size()) fail("text after the root element");
    return root;
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    throw std::runtime_error("XML offset " + std::to_string(i_) + ": " + what);
  }
  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\n' || s_[i_] == '\r' || s_[i_] == '\t')) ++i_;
  }
  std::string name() {
    const std::size_t start = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_' || s_[i_] == '-' ||
                              s_[i_] == ':' || s_[i_] == '.'))
      ++i_;
    if (start == i_) fail("expected a name");
    return s_.substr(start, i_ - start);
  }
  // Decodes character data up to `stop`; a raw '<' or a bad entity is an error.
  std::string chars(char stop) {
    std::string out;
    while (i_ < s_.size() && s_[i_] != stop) {
      const char c = s_[i_];
      if (c == '<') fail("raw '<' in character data");
      if (c == '&') {
        const auto semi = s_.find(';', i_);
        if (semi == std::string::npos) fail("unterminated entity");
        const std::string entity = s_.substr(i_ + 1, semi - i_ - 1);
        static const std::map<std::string, char> known{
            {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
        if (entity.size() > 1 && entity[0] == '#') {
          // A character reference: only the ASCII ones the JUnit writer emits (tab, LF, CR).
          const unsigned long code = std::stoul(entity.substr(1));
          if (code != 9 && code != 10 && code != 13) fail("unexpected character reference &" + entity + ";");
          out += static_cast<char>(code);
          i_ = semi + 1;
          continue;
        }
        const auto it = known.find(entity);
        if (it == known.end()) fail("unknown entity &" + entity + ";");
        out += it->second;
        i_ = semi + 1;
        continue;
      }
      out += c;
      ++i_;
    }
    return out;
  }
  XmlElement element() {
    if (i_ >= s_.size() || s_[i_] != '<') fail("expected '<'");
    ++i_;
    XmlElement e;
    e.name = name();
    for (;;) {
      skip_space();
      if (i_ >= s_.size()) fail("unterminated tag");
      if (s_.compare(i_, 2, "/>") == 0) {
        i_ += 2;
        return e;
      }
      if (s_[i_] == '>') {
        ++i_;
        break;
      }
      const std::string key = name();
      if (s_.compare(i_, 2, "=\"") != 0) fail("attribute without =\"");
      i_ += 2;
      std::string value = chars('"');
      if (i_ >= s_.size()) fail("unterminated attribute");
      ++i_;
      if (!e.attributes.emplace(key, std::move(value)).second) fail("duplicate attribute " + key);
    }
    for (;;) {
      e.text += chars('<');
      if (i_ >= s_.size()) fail("unclosed <" + e.name + ">");
      if (s_.compare(i_, 2, "</") == 0) {
        i_ += 2;
        if (name() != e.name) fail("mismatched end tag for <" + e.name + ">");
        skip_space();
        if (i_ >= s_.size() || s_[i_] != '>') fail("bad end tag");
        ++i_;
        return e;
      }
      e.children.push_back(element());
    }
  }

  const std::string& s_;
  std::size_t i_ = 0;
};

}  // namespace gridfuzz::reports::testing
