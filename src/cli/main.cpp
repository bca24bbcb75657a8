#include <iostream>

#include "cli/app.hpp"

int main(int argc, char** argv) {
  return labrun::run_cli(argc, argv, std::cout, std::cerr);
}
