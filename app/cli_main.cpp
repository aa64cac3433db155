#include "cli.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>

int main(int argc, char** argv) {
    int code = 2;
    try {
        code = dumpscope::runCli(argc, argv, std::cout, std::cerr);
    } catch (...) {
        // runCli catches every std::exception; this is for anything else thrown.
        std::cerr << "error: an unexpected exception ended dumpscope-cli\n";
        return 2;
    }
    // Closing stdout is its last write that can fail (a deferred write error, a network file
    // system); runCli has already said so when an earlier write failed.
    if (std::cout.good() && std::fclose(stdout) != 0) {
        std::cerr << "error: writing the output to stdout failed: " << std::strerror(errno) << "\n";
        return 2;
    }
    return code;
}
