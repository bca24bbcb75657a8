#pragma once
// A submission's manifest: who submitted it, which exercise it is for, the student's worked answer
// (the fields its exercise declares: bytes per element, launches, predicted ratios) and how the
// harness should launch each kernel. The worked answer is graded as an answer; nothing in the
// manifest is ever taken as a fact about the code.

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace labrun {

//! How the harness launches one kernel: its block size, and either a fixed number of elements per
//! thread (grid = ceil(n / (threads_per_block * elements_per_thread)) blocks) or a grid-stride loop
//! (grid = enough blocks to fill every SM once at the kernel's occupancy, at most one element per
//! thread).
//! A 2-D shape, for a kernel over an image, gives both as [x, y] pairs: blocks of
//! threads_per_block x threads_y threads (32..1024 in all, a multiple of 32), each thread covering
//! elements_per_thread x elements_y pixels; grid = (ceil(width / (x threads * x elements)),
//! ceil(height / (y threads * y elements))).
struct LaunchShape {
  int threads_per_block = 256;  //!< 32..1024, a multiple of 32; a 2-D shape's x extent
  int elements_per_thread = 1;  //!< 1..64; unused when grid_stride; a 2-D shape's x extent
  bool grid_stride = false;
  int threads_y = 1;   //!< a 2-D shape's y extent of a block; 1 for a 1-D shape
  int elements_y = 1;  //!< a 2-D shape's y extent of a thread's pixels
  bool two_d = false;  //!< given as [x, y] pairs
  [[nodiscard]] int block_threads() const { return threads_per_block * threads_y; }
  //! "256 threads per block, 1 element per thread", "512 threads per block, grid-stride",
  //! "32 x 8 threads per block, 1 x 4 elements per thread"
  [[nodiscard]] std::string describe() const;
  bool operator==(const LaunchShape&) const = default;
};

//! Limits on what a manifest may say (each field's range is documented in docs/grading.md).
inline constexpr std::size_t kManifestMaxBytes = std::size_t{64} * 1024;
inline constexpr std::size_t kStudentIdMaxLength = 128;  //!< characters (code points), not bytes

//! One field of an exercise's worked answer, as its manifest holds it.
struct AnswerField {
  std::string key;     //!< "bytes_per_element"
  bool whole = false;  //!< a whole number from 1 to max (launches), else a number in (0, max]
  double max = 0.0;
};

//! What an exercise's manifest holds besides student_id, exercise and kernels.
struct ManifestSchema {
  std::vector<AnswerField> answers;  //!< in the order their problems are listed
  std::vector<std::string> kernels;  //!< the kernels a launch shape may be given for (empty: any)
};

struct Manifest {
  //! Empty when missing or unusable: 1 to kStudentIdMaxLength characters, none of them a control, a
  //! format character (bidirectional overrides and isolates, zero-width spaces...) or another that
  //! grading/utf8.hpp's is_hidden_code_point names.
  std::string student_id;
  //! The exercise it names ("sum-of-squares"), the same rules as student_id; empty when not given.
  std::string exercise;
  std::map<std::string, double> answers;       //!< the usable worked-answer fields, by key
  std::map<std::string, LaunchShape> kernels;  //!< the usable launch shapes, by kernel name
  //! One line per unusable or unknown field, each starting with its JSON pointer.
  std::vector<std::string> problems;
  //! The worked-answer field `key`, when the manifest gives a usable one.
  [[nodiscard]] std::optional<double> answer(const std::string& key) const;
};

//! A manifest that cannot be read at all: not a file, too large, not JSON, not an object.
class ManifestError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

//! Parses manifest JSON text; `origin` names the source in messages. Each field is read on its own:
//! a missing, mistyped, out-of-range or unknown field becomes a line of Manifest::problems (nothing
//! is narrowed or rounded: 2.5 launches or 2^32 + 2 launches are refused, not read as 2), and the
//! other fields are still used. A key given twice in one object, at any depth, is a problem naming its
//! JSON pointer, and none of its values is used. `schema`: the exercise's worked-answer fields and
//! kernels ("exercise" is always known and never missing). Throws ManifestError, and nothing else,
//! when the text is not one JSON object.
[[nodiscard]] Manifest parse_manifest(const std::string& text, const std::string& origin,
                                      const ManifestSchema& schema = {});
//! Reads a regular file of at most kManifestMaxBytes and parses it.
[[nodiscard]] Manifest read_manifest(const std::filesystem::path& path, const ManifestSchema& schema = {});

//! What a manifest says about which exercise it is for, read before its exercise (and so its schema)
//! is known: its "exercise" string and the names its "kernels" object gives launch shapes for. Empty
//! where the file is missing, unreadable or says nothing of either; never throws.
struct ManifestHint {
  std::string exercise;
  std::vector<std::string> kernels;
};
[[nodiscard]] ManifestHint read_manifest_hint(const std::filesystem::path& path);

//! The manifest beside a submission: "halfway.cu" -> "halfway.json", else "manifest.json" in the
//! same folder; empty when neither exists.
[[nodiscard]] std::filesystem::path manifest_beside(const std::filesystem::path& submission);

//! The .cu files directly in a submission folder (regular files), sorted by name: a submission is
//! exactly one. Throws std::filesystem::filesystem_error when the folder cannot be listed.
[[nodiscard]] std::vector<std::filesystem::path> submission_sources(const std::filesystem::path& folder);

}  // namespace labrun
