#pragma once
// labrun's exit statuses (also listed in `labrun --help` and README.md).

namespace labrun::exit_code {

inline constexpr int kOk = 0;
inline constexpr int kFailure = 1;     //!< a CUDA error mid-run, an unreadable file, an I/O error
inline constexpr int kUsage = 2;       //!< bad arguments, unknown lab, no matching case
inline constexpr int kNoDevice = 3;    //!< no usable CUDA device (the CUDA error is named)
inline constexpr int kFileExists = 4;  //!< an evidence file exists and --force was not given
inline constexpr int kIncorrect = 5;   //!< a version failed its correctness check
inline constexpr int kRegression = 6;  //!< compare: a case slower than --fail-on-regression allows
//! run --submission: the submission cannot be used (source refused, compile error, kernels that
//! break the contract, fail or hang on the trial run, no usable worked answer)
inline constexpr int kSubmission = 7;

}  // namespace labrun::exit_code
