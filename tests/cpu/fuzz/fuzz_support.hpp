#pragma once
// Mutation fuzzing for the parsers that read text from outside gridfuzz (CSV files, replay
// strings, the ledger, command-line values): a list of mutations applied to a valid seed text,
// generated and shrunk by rapidcheck, and a bounded property runner.
//
// A failing property prints (RC_LOG) the exact input as a C++ string literal: that literal is the
// repro, whatever the random seed was.
#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <typeinfo>
#include <vector>

namespace gridfuzz::fuzz {

// One edit of a text. `at` and `arg` are reduced modulo what they index when applied, so every
// mutation applies to every text (and shrinking towards 0 keeps them valid).
struct Mutation {
  enum class Kind : std::uint8_t {
    flip_bit,            // text[at] ^= 1 << (arg % 8)
    set_byte,            // text[at] = arg
    insert_special,      // a control byte or separator: \n \r \r\n \0 ESC DEL \t " , / = : # space
    insert_bad_utf8,     // an invalid UTF-8 sequence (or a C1 control in valid UTF-8)
    replace_field,       // the field around `at` becomes a huge / odd number or an empty string
    truncate,            // cut the text at `at`
    duplicate_field,     // the field around `at` (with its separator) appears twice
    delete_field,        // the field around `at` (with its separator) is removed
    duplicate_line,      // the line around `at` appears twice
    count
  };
  Kind kind = Kind::flip_bit;
  std::uint32_t at = 0;
  std::uint32_t arg = 0;
};
void showValue(const Mutation& m, std::ostream& out);

// Applies `mutations` in order. A field is the span between two bytes of `separators` (or the
// text's ends); a line ends at '\n'.
std::string apply(std::string text, const std::vector<Mutation>& mutations, std::string_view separators);

// 0 to 6 mutations (0: the seed as it is).
rc::Gen<std::vector<Mutation>> mutations();

// A seed text with mutations applied, logged (RC_LOG) as a C++ literal.
std::string mutated(const std::vector<std::string>& seeds, std::string_view separators);

// `text` as a C++ string literal (quotes included) that compiles back to the same bytes.
std::string cpp_literal(std::string_view text);

// Whether `text` holds a control character: C0 (0x00-0x1f), DEL, or a C1 control encoded in
// UTF-8 (U+0080-U+009F, bytes C2 80 - C2 9F). `allowed` lists C0 bytes that are fine.
bool has_control_character(std::string_view text, std::string_view allowed = {});

std::string read_file(const std::string& path);

// How a parser call ended: its value, or the message of the documented exception it threw.
template <typename T>
struct Outcome {
  std::optional<T> value;
  std::string rejected;  // what() of the documented exception
};

std::string exception_type_name(const std::exception& e);

// Calls `parse`; returns its value or the documented exception (`Documented`, derived types
// included, with any `Also` documented too). Any other exception fails the property, naming its
// type and message.
template <typename Documented, typename... Also, typename F>
auto expect_value_or(F&& parse) -> Outcome<decltype(parse())> {
  Outcome<decltype(parse())> out;
  std::string other;
  try {
    out.value.emplace(parse());
    return out;
  } catch (const Documented& e) {
    out.rejected = e.what();
    return out;
  } catch (const std::exception& e) {
    bool documented = false;
    ((documented = documented || dynamic_cast<const Also*>(&e) != nullptr), ...);
    if (documented) {
      out.rejected = e.what();
      return out;
    }
    other = exception_type_name(e) + ": " + e.what();
  } catch (...) {
    other = "an exception not derived from std::exception";
  }
  RC_FAIL("undocumented exception " + other);
}

// Runs a rapidcheck property as the current GoogleTest test with `cases` successful cases
// (times GRIDFUZZ_FUZZ_SCALE, default 1), unless RC_PARAMS sets max_success itself. Fails the test
// with rapidcheck's counterexample.
void check_property(int cases, const std::function<void()>& property);

// Defines a GoogleTest test running a bounded property: FUZZ_PROP(Suite, Name, 500) { body }.
#define FUZZ_PROP(Suite, Name, cases)                                   \
  void fuzz_prop_##Suite##_##Name();                                    \
  TEST(Suite, Name) { ::gridfuzz::fuzz::check_property((cases), &fuzz_prop_##Suite##_##Name); } \
  void fuzz_prop_##Suite##_##Name()

}  // namespace gridfuzz::fuzz
