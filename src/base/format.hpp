#pragma once
// Number formatting shared by the text renderings, so every table prints figures the same way.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace labrun {

//! The items in order with `separator` between them ("a, b, c"); "" for none.
[[nodiscard]] std::string join(const std::vector<std::string>& items, const std::string& separator);
//! Fixed-point with `decimals` digits after the point ("0.548"); "nan"/"inf" for non-finite.
[[nodiscard]] std::string fixed(double value, int decimals);
//! Scientific with 2 significant decimals ("2.38e-07").
[[nodiscard]] std::string scientific(double value);
//! A figure for a summary cell: whole numbers of 1000 or more without decimals, others with two.
[[nodiscard]] std::string compact_number(double value);
//! A figure to `digits` significant digits, trailing zeros dropped: 5 is "5", 340 / 256 "1.328",
//! 512.345 "512.3", 0.0123456 "0.01235" (whole numbers of more digits keep them all: "123456").
[[nodiscard]] std::string significant(double value, int digits);
//! Percentage of a fraction with one decimal ("100.0%").
[[nodiscard]] std::string percent(double fraction);
//! A byte count per element: whole numbers without decimals ("36"), others with up to two, trailing
//! zeros dropped ("4.5", "4.03").
[[nodiscard]] std::string bytes_per_element_text(double bytes);
//! Binary size ("60.0 MiB").
[[nodiscard]] std::string binary_size(std::uint64_t bytes);

//! A name from outside labrun (a file name, an argument: any bytes) as text every format labrun writes
//! can hold: well-formed UTF-8 is kept as it is, and each byte that is not part of it is written as
//! \xNN, so that JSON (which must be UTF-8) never refuses it and a reader can still tell the bytes.
[[nodiscard]] std::string name_text(const std::string& bytes);

//! Text as one line of a message: name_text, then each control character (LF, CR, tab, ESC, ...)
//! written as its C escape (\n, \r, \t, \x1b), so that a file name or a JSON key holding one cannot
//! break a one-line error in two, or send a terminal a control sequence.
[[nodiscard]] std::string one_line(const std::string& text);

//! Whether `text` ends with `suffix` (every text ends with the empty one).
[[nodiscard]] bool ends_with(std::string_view text, std::string_view suffix);

//! Text labrun did not write (a transcript's or a submission's), made inert in Markdown: a < that
//! would open a tag, comment or autolink becomes &lt;; an & that would start a character reference
//! (&#x202E; is a bidirectional override once rendered) becomes \&; \ ` [ ] | are backslash-escaped,
//! so that no link, code span or table cell can be opened or closed by it; every ASCII control
//! character (CR and LF too) becomes a space. It reads bytes: the Unicode controls, bidirectional and
//! invisible characters are grading/utf8.hpp's inert_text's to replace, before this. Text such as "n * 4 B >=
//! 8 x L2" and emphasis marks (* _) are left as they are: they open no structure.
[[nodiscard]] std::string escape_markdown(const std::string& text);
//! Text labrun did not write, as one Markdown code span: `text`, with each backtick and control
//! character replaced by ' and a space, so that the span cannot end early.
[[nodiscard]] std::string markdown_code_span(const std::string& text);

}  // namespace labrun
