#pragma once
// A submission's manifest: who submitted it and what the student predicted before measuring.

#include <filesystem>
#include <stdexcept>
#include <string>

namespace labrun {

struct Manifest {
  std::string student_id;
  double bytes_per_element = 0.0;  //!< declared traffic of the submission, bytes per element
  int launches = 0;                //!< declared kernel launches per execution
  double predicted_ratio_vs_staged = 0.0;
  double predicted_ratio_vs_fused = 0.0;
};

//! A manifest that cannot be used; the message names the file and the field.
class ManifestError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

//! Parses manifest JSON text; `origin` names the source in messages. Every field is required and
//! typed; unknown fields are refused (a misspelt field would otherwise be silently ignored).
[[nodiscard]] Manifest parse_manifest(const std::string& text, const std::string& origin);
[[nodiscard]] Manifest read_manifest(const std::filesystem::path& path);

//! The manifest beside a submission: "halfway.cu" -> "halfway.json", else "manifest.json" in the
//! same folder; empty when neither exists.
[[nodiscard]] std::filesystem::path manifest_beside(const std::filesystem::path& submission);

}  // namespace labrun
