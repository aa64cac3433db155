// Fuzzes the safetensors header reader: any bytes, written to a file and listed, either give an
// error naming the file and a byte, or tensors that hold what the listing promises: each one's
// elements inside the file and after the header, no two overlapping, in ascending data order,
// and the bytes of a known type exactly count * size. No input may crash, hang or read out of
// bounds, and none may make the reader allocate more than its header's capped length.
#include "formats/tensor_entry.h"
#include "io/dump_reader.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <fcntl.h>
#include <unistd.h>

using namespace dumpscope;

namespace {

void check(bool ok) {
    if (!ok) std::abort(); // an invariant broke: libFuzzer reports it as a crash
}

// One file per process, rewritten for every input.
const std::filesystem::path& scratchFile() {
    static const std::filesystem::path path = [] {
        std::string name = (std::filesystem::temp_directory_path() /
                            ("fuzz_safetensors." + std::to_string(getpid()) + ".XXXXXX"))
                               .string();
        const int fd = mkstemp(name.data());
        check(fd >= 0);
        close(fd);
        return std::filesystem::path(name);
    }();
    return path;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto& path = scratchFile();
    const int fd = open(path.c_str(), O_WRONLY | O_TRUNC);
    check(fd >= 0);
    check(size == 0 || write(fd, data, size) == static_cast<ssize_t>(size));
    close(fd);

    detail::DumpReader reader;
    check(reader.open(path, detail::ReadPattern::random));
    const detail::ContainerListing listing = detail::listSafetensors(reader, "f.safetensors");
    if (!listing.error.empty()) {
        check(listing.tensors.empty());
        check(listing.error.rfind(path.string() + ": byte ", 0) == 0);
        return 0;
    }
    check(size >= 8);
    std::uint64_t headerLength = 0;
    for (int i = 7; i >= 0; --i)
        headerLength = headerLength << 8 | data[i];
    const std::uint64_t dataStart = 8 + headerLength;
    std::uint64_t previousEnd = dataStart;
    for (const auto& t : listing.tensors) {
        const auto& at = t.location;
        check(at.file == "f.safetensors" && at.key == t.key && at.contiguous());
        check(at.offset >= previousEnd && at.offset <= size && at.extentBytes <= size - at.offset);
        previousEnd = at.offset + at.extentBytes;
        std::uint64_t count = 1;
        for (auto d : t.shape)
            count *= d;
        check(count == at.count);
        if (t.dtype) check(at.count * dtypeSize(*t.dtype) == at.extentBytes);
    }
    return 0;
}
