#pragma once
// Case selection by glob pattern.

#include <string>
#include <string_view>

namespace labrun {

//! Glob match over the whole text: '*' matches any run of characters (including '/'),
//! '?' matches one character; everything else matches itself.
[[nodiscard]] bool glob_match(std::string_view pattern, std::string_view text);

//! A case is selected when the pattern matches its full name ("day48-fusion/part2/fused-chain")
//! or its name without the lab prefix ("part2/fused-chain").
[[nodiscard]] bool case_matches(std::string_view pattern, std::string_view lab_name,
                                std::string_view case_name);

}  // namespace labrun
