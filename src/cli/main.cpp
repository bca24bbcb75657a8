#include <iostream>

#include "base/temporary_files.hpp"
#include "cli/app.hpp"

int main(int argc, char** argv) {
  // Before anything is written: no signal that can be caught leaves a temporary behind, and a
  // file-size limit is a write error, not a kill (base/temporary_files.hpp).
  labrun::remove_temporaries_on_signals();
  return labrun::run_cli(argc, argv, std::cout, std::cerr);
}
