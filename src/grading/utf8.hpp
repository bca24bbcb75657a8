#pragma once
// Text from programs a grader does not control (a compiler's messages, a kernel's printf) may hold
// any bytes; reports are JSON and must be valid UTF-8.

#include <string>
#include <string_view>

namespace labrun {

//! `bytes` with every byte that is not part of a well-formed UTF-8 sequence (overlong forms,
//! surrogates and code points above U+10FFFF included) replaced by U+FFFD, and every control
//! character other than tab, newline and carriage return replaced by U+FFFD too.
[[nodiscard]] std::string valid_utf8(std::string_view bytes);

}  // namespace labrun
