#pragma once
// Text from programs a grader does not control (a compiler's messages, a kernel's printf) and from
// submissions (a student id, a manifest's keys, file and folder names) may hold any bytes; reports
// are JSON, Markdown, CSV and terminal lines, and must show such text as what it is, never let it
// act on the reader (move text around, hide it, or drive a terminal).

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace labrun {

//! `bytes` with every byte that is not part of a well-formed UTF-8 sequence (overlong forms,
//! surrogates and code points above U+10FFFF included) replaced by U+FFFD, and every control
//! character other than tab, newline and carriage return replaced by U+FFFD too.
[[nodiscard]] std::string valid_utf8(std::string_view bytes);

//! Whether a code point shows nothing of itself, or changes how the text around it is shown or
//! read: C0 and C1 controls and DEL; Unicode's format characters (general category Cf: the soft
//! hyphen, bidirectional marks, embeddings, overrides and isolates, zero-width spaces and joiners,
//! the byte-order mark, interlinear annotation, tags) and the other default-ignorable code points
//! (variation selectors, Hangul fillers); the line and paragraph separators; private-use code
//! points, noncharacters, and the planes Unicode leaves unassigned (4 to 13) or for tags and
//! private use (14 to 16). A small table of ranges (utf8.cpp), checked by grading/utf8_test.cpp.
[[nodiscard]] bool is_hidden_code_point(char32_t code_point);

//! The first code point of well-formed UTF-8 `text` that is_hidden_code_point, with its place
//! (counted in code points from 0); nullopt when there is none. `text` must be valid UTF-8.
struct HiddenCodePoint {
  char32_t code_point = 0;
  std::size_t position = 0;
};
[[nodiscard]] std::optional<HiddenCodePoint> first_hidden_code_point(std::string_view text);

//! Code points in `text`, or nullopt when it is not well-formed UTF-8.
[[nodiscard]] std::optional<std::size_t> code_point_count(std::string_view text);

//! "U+202E".
[[nodiscard]] std::string code_point_name(char32_t code_point);

//! Text from outside labrun as one line that shows what it holds and does nothing else, for every
//! format labrun writes (JSON, Markdown before its escaping, CSV, a terminal): valid_utf8's
//! replacements, every hidden code point (is_hidden_code_point: C1 controls such as U+009B, ESC,
//! bidirectional overrides, zero-width characters...) replaced by U+FFFD, and tab, carriage return
//! and newline each replaced by a space.
[[nodiscard]] std::string inert_text(std::string_view bytes);

//! Text from outside labrun as one line that shows what it holds, does nothing else, and still tells
//! apart any two different texts: what inert_text keeps is kept, and everything it would replace is
//! written as a visible escape instead (an invalid byte as \x{FF}, a hidden code point, tab,
//! carriage return and newline included, as \u{1B}, \u{202E}), a backslash as \\. So two folder
//! names that differ only in what cannot be shown (ESC against a zero-width space, a bad byte
//! against U+FFFD) have two different visible names, where inert_text gives both U+FFFD. For
//! Markdown and CSV, whose readers must not be acted on, where the exact text is not wanted.
[[nodiscard]] std::string visible_text(std::string_view bytes);

//! At most `max_code_points` code points of valid UTF-8 `text`, with "..." after them when any
//! were cut; never cuts a sequence in two.
[[nodiscard]] std::string first_code_points(std::string_view text, std::size_t max_code_points);

}  // namespace labrun
