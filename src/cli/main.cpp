#include <unistd.h>

#include <iostream>

#include "base/descriptor_output.hpp"
#include "base/temporary_files.hpp"
#include "cli/app.hpp"

int main(int argc, char** argv) {
  // Before anything is written: no signal that can be caught leaves a temporary behind, and a
  // file-size limit is a write error, not a kill (base/temporary_files.hpp).
  labrun::remove_temporaries_on_signals();
  // Standard output through a buffer that keeps why a write failed: run_cli checks it before it
  // returns, so a full disk or a file-size limit on what labrun prints is exit 1, not 0.
  labrun::DescriptorOutput standard_output(STDOUT_FILENO);
  std::ostream out(&standard_output);
  return labrun::run_cli(argc, argv, out, std::cerr);
}
