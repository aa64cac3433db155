#pragma once
// Fault injection at the pread system call, for the robustness tests.
//
// libdumpscope_io_fault.so defines pread and pread64. Linked into a test executable (or loaded
// with LD_PRELOAD into the real dumpscope-cli) it comes before libc, so every pread of the
// process goes through it; when nothing is armed it forwards straight to the system call.
// Armed on one file, a pread of that file at or beyond `offset` does `action` instead; a read
// that straddles `offset` returns the bytes before it first (a short read, as the kernel may),
// so the trigger does not depend on the reader's chunk size.
//
// From another process: DUMPSCOPE_IO_FAULT="ACTION:OFFSET:PATH" in its environment.
#include <cstdint>
#include <filesystem>
#include <string_view>

namespace dumpscope::test::io_fault {

enum class Action {
    eio,    // this and every later read of the file at or past offset fails with EIO
    grow,   // once: 4 KiB are appended to the file, then the read goes on
    shrink, // once: the file is truncated to offset, then the read goes on (and finds its end)
    touch,  // once: only the file's modification time moves (size and bytes unchanged)
};

void arm(const std::filesystem::path& file, std::uint64_t offset, Action action);
void disarm();
// Whether the armed fault has been triggered since arm().
bool fired();

// "eio", "grow", "shrink", "touch"; the environment variable's spelling.
std::string_view actionName(Action action);
// The value of DUMPSCOPE_IO_FAULT that arms `action` in a child process.
std::string environmentValue(const std::filesystem::path& file, std::uint64_t offset,
                             Action action);

} // namespace dumpscope::test::io_fault
