#include "grading/utf8.hpp"

#include <algorithm>
#include <cstdio>
#include <iterator>

namespace labrun {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

// Length of the well-formed UTF-8 sequence starting at bytes[at], or 0 when it is not one.
std::size_t sequence_length(std::string_view bytes, std::size_t at) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(bytes[at + k]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead < 0x80) {
    return 1;
  }
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    low = lead == 0xE0 ? 0xA0 : 0x80;   // no overlong forms
    high = lead == 0xED ? 0x9F : 0xBF;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    low = lead == 0xF0 ? 0x90 : 0x80;
    high = lead == 0xF4 ? 0x8F : 0xBF;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (at + length > bytes.size()) {
    return 0;
  }
  if (byte(1) < low || byte(1) > high) {
    return 0;
  }
  for (std::size_t k = 2; k < length; ++k) {
    if (byte(k) < 0x80 || byte(k) > 0xBF) {
      return 0;
    }
  }
  return length;
}

// The code point of the well-formed sequence of `length` bytes at bytes[at].
char32_t decode(std::string_view bytes, std::size_t at, std::size_t length) {
  const auto byte = [&](std::size_t k) {
    return static_cast<char32_t>(static_cast<unsigned char>(bytes[at + k]));
  };
  if (length == 1) {
    return byte(0);
  }
  char32_t code_point = byte(0) & (length == 2 ? 0x1Fu : length == 3 ? 0x0Fu : 0x07u);
  for (std::size_t k = 1; k < length; ++k) {
    code_point = (code_point << 6) | (byte(k) & 0x3Fu);
  }
  return code_point;
}

struct CodePointRange {
  char32_t first;
  char32_t last;
};

// Hidden code points, sorted: Unicode 15's general category Cf and Default_Ignorable_Code_Point,
// the controls, and the other ranges is_hidden_code_point names. Noncharacters at the end of each
// plane (U+nFFFE, U+nFFFF) are found by rule.
constexpr CodePointRange kHidden[] = {
    {0x0000, 0x001F},     // C0 controls
    {0x007F, 0x009F},     // DEL and the C1 controls (U+0085 next line, U+009B CSI)
    {0x00AD, 0x00AD},     // soft hyphen
    {0x034F, 0x034F},     // combining grapheme joiner
    {0x0600, 0x0605},     // Arabic number signs
    {0x061C, 0x061C},     // Arabic letter mark
    {0x06DD, 0x06DD},     // Arabic end of ayah
    {0x070F, 0x070F},     // Syriac abbreviation mark
    {0x0890, 0x0891},     // Arabic pound and piastre marks above
    {0x08E2, 0x08E2},     // Arabic disputed end of ayah
    {0x115F, 0x1160},     // Hangul fillers
    {0x17B4, 0x17B5},     // Khmer inherent vowels
    {0x180B, 0x180F},     // Mongolian variation selectors and vowel separator
    {0x200B, 0x200F},     // zero-width space, non-joiner, joiner; left-to-right and right-to-left marks
    {0x2028, 0x202E},     // line and paragraph separators; bidirectional embeddings and overrides
    {0x2060, 0x206F},     // word joiner, invisible operators, bidirectional isolates, deprecated format
    {0x3164, 0x3164},     // Hangul filler
    {0xD800, 0xF8FF},     // surrogates (never decoded), private use
    {0xFDD0, 0xFDEF},     // noncharacters
    {0xFE00, 0xFE0F},     // variation selectors
    {0xFEFF, 0xFEFF},     // zero-width no-break space, the byte-order mark
    {0xFFA0, 0xFFA0},     // halfwidth Hangul filler
    {0xFFF0, 0xFFFB},     // unassigned specials; interlinear annotation anchors and terminator
    {0x110BD, 0x110BD},   // Kaithi number sign
    {0x110CD, 0x110CD},   // Kaithi number sign above
    {0x13430, 0x1343F},   // Egyptian hieroglyph format controls
    {0x1BCA0, 0x1BCA3},   // shorthand format controls
    {0x1D173, 0x1D17A},   // musical symbol format controls
    {0x40000, 0xDFFFF},   // planes 4 to 13: unassigned
    {0xE0000, 0x10FFFF},  // plane 14 (tags, variation selectors supplement), 15 and 16 (private use)
};

}  // namespace

bool is_hidden_code_point(char32_t code_point) {
  if ((code_point & 0xFFFEu) == 0xFFFEu) {
    return true;  // U+nFFFE and U+nFFFF, noncharacters in every plane
  }
  const auto after =
      std::upper_bound(std::begin(kHidden), std::end(kHidden), code_point,
                       [](char32_t c, const CodePointRange& range) { return c < range.first; });
  return after != std::begin(kHidden) && code_point <= std::prev(after)->last;
}

std::string valid_utf8(std::string_view bytes) {
  std::string text;
  text.reserve(bytes.size());
  std::size_t at = 0;
  while (at < bytes.size()) {
    const std::size_t length = sequence_length(bytes, at);
    const auto c = static_cast<unsigned char>(bytes[at]);
    if (length == 0 || (length == 1 && ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7F))) {
      text += kReplacement;
      ++at;
      continue;
    }
    text.append(bytes.substr(at, length));
    at += length;
  }
  return text;
}

std::optional<HiddenCodePoint> first_hidden_code_point(std::string_view text) {
  std::size_t position = 0;
  for (std::size_t at = 0; at < text.size(); ++position) {
    const std::size_t length = std::max<std::size_t>(1, sequence_length(text, at));
    const char32_t code_point = decode(text, at, length);
    if (is_hidden_code_point(code_point)) {
      return HiddenCodePoint{code_point, position};
    }
    at += length;
  }
  return std::nullopt;
}

std::optional<std::size_t> code_point_count(std::string_view text) {
  std::size_t count = 0;
  for (std::size_t at = 0; at < text.size(); ++count) {
    const std::size_t length = sequence_length(text, at);
    if (length == 0) {
      return std::nullopt;
    }
    at += length;
  }
  return count;
}

std::string code_point_name(char32_t code_point) {
  char name[16];
  std::snprintf(name, sizeof name, "U+%04X", static_cast<unsigned>(code_point));
  return name;
}

std::string inert_text(std::string_view bytes) {
  std::string text;
  text.reserve(bytes.size());
  for (std::size_t at = 0; at < bytes.size();) {
    const std::size_t length = sequence_length(bytes, at);
    if (length == 0) {
      text += kReplacement;
      ++at;
      continue;
    }
    const char32_t code_point = decode(bytes, at, length);
    if (code_point == '\t' || code_point == '\n' || code_point == '\r') {
      text += ' ';
    } else if (is_hidden_code_point(code_point)) {
      text += kReplacement;
    } else {
      text.append(bytes.substr(at, length));
    }
    at += length;
  }
  return text;
}

std::string visible_text(std::string_view bytes) {
  std::string text;
  text.reserve(bytes.size());
  char escape[16];
  for (std::size_t at = 0; at < bytes.size();) {
    const std::size_t length = sequence_length(bytes, at);
    if (length == 0) {
      std::snprintf(escape, sizeof escape, "\\x{%02X}",
                    static_cast<unsigned>(static_cast<unsigned char>(bytes[at])));
      text += escape;
      ++at;
      continue;
    }
    const char32_t code_point = decode(bytes, at, length);
    if (code_point == '\\') {
      text += "\\\\";
    } else if (is_hidden_code_point(code_point)) {
      std::snprintf(escape, sizeof escape, "\\u{%X}", static_cast<unsigned>(code_point));
      text += escape;
    } else {
      text.append(bytes.substr(at, length));
    }
    at += length;
  }
  return text;
}

std::string first_code_points(std::string_view text, std::size_t max_code_points) {
  std::size_t at = 0;
  for (std::size_t count = 0; at < text.size() && count < max_code_points; ++count) {
    at += std::max<std::size_t>(1, sequence_length(text, at));
  }
  return at >= text.size() ? std::string(text) : std::string(text.substr(0, at)) + "...";
}

}  // namespace labrun
