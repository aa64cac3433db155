#pragma once

#include <cstdint>
#include <cstring>

#include "dumpscope/dtype.h"
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace dumpscope::test {

// A fresh directory under the system temp dir, removed (with everything in it) on destruction.
class TempDir {
  public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return m_path; }
    std::filesystem::path operator/(const std::string& name) const { return m_path / name; }

  private:
    std::filesystem::path m_path;
};

void writeBytes(const std::filesystem::path& file, const void* data, std::size_t size);
void writeText(const std::filesystem::path& file, const std::string& text);
// A numpy .npy (version 1.0, C order) of `descr` elements ("<f4", "<f2", …) with `shape` as numpy
// prints it ("3," or "2, 4"), then the elements' `size` raw bytes; its folder is made if need be.
void writeNpyFile(const std::filesystem::path& file, const std::string& descr,
                  const std::string& shape, const void* data, std::size_t size);

template <typename T>
void writeArray(const std::filesystem::path& file, const std::vector<T>& values) {
    writeBytes(file, values.data(), values.size() * sizeof(T));
}

// Writes `dir/step_<step>_<rest>.bin` (creating dir) holding `values`.
template <typename T>
std::filesystem::path writeDump(const std::filesystem::path& dir, std::uint64_t step,
                                const std::string& rest, const std::vector<T>& values) {
    std::filesystem::create_directories(dir);
    auto file = dir / ("step_" + std::to_string(step) + "_" + rest + ".bin");
    writeArray(file, values);
    return file;
}

// A pair DIR/a, DIR/b with a directory per rank (`rankDir` followed by the rank: "rank",
// "rank_"), each holding steps 1..steps of h_q_logits (two floats); run B's differs where
// `differs(rank, step)` says.
void writeRankedPair(const std::filesystem::path& dir, int ranks, int steps,
                     const std::function<bool(int rank, int step)>& differs,
                     const std::string& rankDir = "rank");

// Every element type, in DType order.
inline constexpr DType kAllTypes[] = {
    DType::f16, DType::bf16, DType::f32, DType::f64, DType::i8,  DType::u8,      DType::i16,
    DType::u16, DType::i32,  DType::u32, DType::i64, DType::u64, DType::f8_e4m3, DType::f8_e5m2};

// A file's whole content (empty when unreadable); a directory's entry names, sorted.
std::string readFile(const std::filesystem::path& file);
std::vector<std::string> listDir(const std::filesystem::path& dir);

// Everything under a directory, recursively (the directory itself as "."): each entry's type,
// modification time and, for regular files, bytes. Equal snapshots taken before and after a run
// mean nothing there was written, touched, created or removed.
struct TreeEntry {
    std::string type; // "file", "dir", "symlink" or "other"
    std::int64_t mtimeNs = 0;
    std::string bytes; // a regular file's content, a symlink's target
    bool operator==(const TreeEntry&) const = default;
};
using TreeSnapshot = std::map<std::string, TreeEntry>;
TreeSnapshot snapshotTree(const std::filesystem::path& dir);
void PrintTo(const TreeEntry& entry, std::ostream* os); // for gtest's failure messages

// Removes every write permission under a directory (chmod -R a-w) and puts the original modes
// back on destruction. As root, permissions do not stop writes: see runningAsRoot().
class ReadOnlyTree {
  public:
    explicit ReadOnlyTree(const std::filesystem::path& dir);
    ~ReadOnlyTree();
    ReadOnlyTree(const ReadOnlyTree&) = delete;
    ReadOnlyTree& operator=(const ReadOnlyTree&) = delete;

  private:
    std::vector<std::pair<std::filesystem::path, std::filesystem::perms>> m_modes;
};
bool runningAsRoot();

float floatFromBits(std::uint32_t bits);
std::uint32_t bitsOfFloat(float f);

struct ProcessResult {
    int exitCode = -1; // -1 when it did not exit normally
    std::string out;
    std::string err;
};
// Runs `argv` (argv[0] a path) with stdin closed and returns its stdout, stderr and exit code.
// `env` entries "NAME=value" are added to the environment, replacing inherited ones of the
// same name ("NAME=" leaves it set but empty). Kills it after `timeoutSeconds`.
// `onOutput`, when given, is called with the process id and everything read so far each time
// the process writes, so a test can react to what it printed (write more input, send a signal).
// `stdoutTo`, when not empty, is opened for writing as the process's stdout instead of a pipe
// (e.g. /dev/full); `out` then stays empty.
ProcessResult
runProcess(const std::vector<std::string>& argv, const std::vector<std::string>& env = {},
           int timeoutSeconds = 120,
           const std::function<void(int pid, const ProcessResult& soFar)>& onOutput = {},
           const std::filesystem::path& stdoutTo = {});

// tests/data in the checkout: committed files written by the real libraries (numpy, torch) by
// the scripts beside them, so that the suite needs neither.
std::filesystem::path testDataDir();
// ../shared beside the checkout, or empty when it is absent (tests then GTEST_SKIP visibly).
std::filesystem::path sharedDir();
// Unpacks ../shared/samples/NAME (a .tar.xz) into `into`; false when absent or tar fails.
bool unpackSample(const std::string& name, const std::filesystem::path& into);

} // namespace dumpscope::test
