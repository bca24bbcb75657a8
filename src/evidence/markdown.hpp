#pragma once
// The Markdown rendering of a transcript: metadata, byte model, correctness and the lab's own
// tables. It is made from the transcript alone, so `labrun report` reproduces what a run wrote.

#include <filesystem>
#include <string>

#include "core/transcript.hpp"
#include "registry/lab.hpp"

namespace labrun {

//! One Markdown pipe table with padded columns.
[[nodiscard]] std::string render_table(const Table& table);

//! A table as a section: a blank line, `heading_marks` and the table's title, a blank line, its
//! notes one per line (then a blank line), and the table.
[[nodiscard]] std::string render_table_section(const Table& table, const std::string& heading_marks = "##");

//! The whole report. `lab` supplies the lab's tables; when it is nullptr (a lab this build does
//! not know) a generic table of every case is rendered instead. `plots_section` (Markdown linking
//! the plots drawn beside the report, src/plots) goes right after the lab's tables.
[[nodiscard]] std::string render_markdown(const Transcript& transcript, const Lab* lab,
                                          const std::string& plots_section = "");

//! The Markdown linking the lab's plots found drawn beside `json_file` (svg, as `labrun run` draws
//! them, named after its stem); empty when there are none or the lab draws none.
[[nodiscard]] std::string plots_section_beside(const Transcript& transcript, const Lab* lab,
                                               const std::filesystem::path& json_file);

//! The Markdown of the transcript read from `json_file`, linking the lab's plots found drawn beside
//! it (svg, as `labrun run` draws them): what the run wrote, and what `labrun report` prints.
[[nodiscard]] std::string render_markdown_beside(const Transcript& transcript, const Lab* lab,
                                                 const std::filesystem::path& json_file);

}  // namespace labrun
