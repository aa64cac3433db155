// Fuzzes the whole scan-and-read path of a run laid out by itself: any bytes, written as the same
// tensor file in run A and run B (under a name chosen by the input's length: a flat .bin or .npy
// dump, or a .pt, .safetensors or .npz step file), are listed by the format that claims them, and
// the pair is analysed. Identical bytes may never diverge; a buffer that could not be read is an
// error and makes the exit code 2; a run where nothing was refused or diverged exits 0. No input
// may crash, hang or read out of bounds.
#include "dumpscope/analyze.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

using namespace dumpscope;
namespace fs = std::filesystem;

namespace {

void check(bool ok) {
    if (!ok) std::abort(); // an invariant broke: libFuzzer reports it as a crash
}

// One pair of run folders per process, emptied for every input.
const fs::path& scratchDir() {
    static const fs::path dir = [] {
        std::string name =
            (fs::temp_directory_path() / ("fuzz_scan." + std::to_string(getpid()) + ".XXXXXX"))
                .string();
        check(mkdtemp(name.data()) != nullptr);
        return fs::path(name);
    }();
    return dir;
}

const char* const kNames[] = {"step_1_x.bin", "step_1_x.npy", "step_1.pt", "step_1.safetensors",
                              "step_1.npz"};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const fs::path& dir = scratchDir();
    const char* name = kNames[size % (sizeof kNames / sizeof kNames[0])];
    for (const char* run : {"a", "b"}) {
        fs::remove_all(dir / run);
        fs::create_directories(dir / run);
        std::ofstream out(dir / run / name, std::ios::binary);
        out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
        check(static_cast<bool>(out));
    }
    const Analysis an = analyze(dir / "a", dir / "b");
    bool anyError = !an.errorA.empty() || !an.errorB.empty();
    for (const BufferResult& b : an.buffers) {
        check(!isDivergent(b.status) && !isOneSided(b.status));
        if (isError(b.status)) {
            anyError = true;
            check(!b.error.empty());
        }
    }
    check(anyError ? an.verdict.exitCode == 2 : an.verdict.exitCode == 0);
    return 0;
}
