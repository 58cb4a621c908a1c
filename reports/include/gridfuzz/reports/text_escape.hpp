#pragma once
// One escaping function per place text from outside (a CSV, a plugin, a command line) can reach.
// Every such string goes through the function of its target, so no field can end a gnuplot
// string and start a command, break an XML file, or send escape sequences to a terminal.
#include <string>
#include <string_view>

namespace gridfuzz::reports {

// The text as valid UTF-8: every byte that does not start or continue a well-formed sequence
// (overlong forms, surrogates and code points past U+10FFFF included) becomes U+FFFD.
std::string valid_utf8(std::string_view text);

// True when the text is valid UTF-8 with no control character (C0, DEL or C1): what a CSV text
// field may hold.
bool is_printable_utf8(std::string_view text);

// A gnuplot single-quoted string literal, quotes included. Inside one, gnuplot ends the command at
// a line break whatever the quoting, so line breaks and every other control character become a
// space; ' is doubled. Nothing in the result can start another gnuplot command.
std::string gnuplot_string(std::string_view text);

// Text for an XML 1.0 attribute or element: valid UTF-8, & < > " ' as entities, tab, LF and CR
// as character references (attribute values keep them), every other control character (XML 1.0
// cannot hold them at all) as U+FFFD.
std::string xml_escape(std::string_view text);

// Text for one line of a terminal or a log (a message, a note, a field): valid UTF-8 kept, every
// control character (ESC, NUL, CR, LF, DEL, C1, ...) and every invalid byte shown as \xNN. No
// escape sequence, no hidden text, and no line break: a field or an error cannot start a line
// that looks like another message.
std::string terminal_text(std::string_view text);

// Text for Markdown (report.md), in a table cell, a list item or a heading: shows as the same
// characters and makes no markup. HTML's & < > become entities (no tag, no entity of the
// field's own), Markdown's punctuation that could start markup (\ ` * _ [ ] | # ~ $) is
// backslash-escaped (_ only where it could start or end emphasis, so moe_vec stays as it is),
// line breaks become spaces.
std::string markdown_text(std::string_view text);

// A Markdown code span (`text`) in a table cell: the fence is longer than any run of backticks in
// the text (so the text cannot end it), | is escaped for the table, line breaks become spaces.
// Inside a code span HTML and Markdown are shown, never interpreted.
std::string markdown_code(std::string_view text);

// Lines that gridfuzz composed (a report, the diff's lists) for a terminal: each line through
// terminal_text, the line breaks between them kept.
std::string terminal_lines(std::string_view text);

}  // namespace gridfuzz::reports
