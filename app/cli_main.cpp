#include "dumpscope/cli.h"

#include <iostream>

int main(int argc, char** argv) { return dumpscope::runCli(argc, argv, std::cout, std::cerr); }
