#pragma once
// How this binary was built, fixed at configure time (build_info.cpp.in) and, for the git state,
// at build time (cmake/git_info.cmake).

#include <string>

namespace labrun::build_info {

struct Item {
  const char* value;   //!< empty when unknown
  const char* reason;  //!< why it is unknown, when value is empty
};

const char* labrun_version();
const char* nvcc_version();
const char* cuda_flags();
const char* cuda_architectures();
const char* host_compiler();
const char* cuda_host_compiler();
const char* build_type();
Item git_commit();
Item git_dirty();          //!< "true" / "false"
const char* git_source();  //!< where the git facts came from

}  // namespace labrun::build_info
