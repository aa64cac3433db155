// Fuzzes the .npy and .npz listings and the zip directory under them: any bytes, as a file.
// Nothing may crash, hang or read outside the file. Checked: a refusal names the file; every
// zip member's data lies inside the file; every listed tensor's elements lie inside the file
// (stored) or inside its member's inflated bytes (deflated), its count times its item size is
// its extent, and a strided view's last element lies inside that extent; a deflated member
// inflates front to back (past the .npy header, then its elements) without going past its
// directory size.
#include "formats/inflate_stream.h"
#include "formats/tensor_entry.h"
#include "formats/zip_directory.h"
#include "io/dump_reader.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <unistd.h>

using namespace dumpscope;
using namespace dumpscope::detail;

namespace {

void check(bool ok) {
    if (!ok) std::abort();
}

// One file per process, rewritten for each input: the readers take an opened file.
const std::string& scratchPath() {
    static const std::string path = [] {
        std::string p = "/tmp/dumpscope-fuzz-npy-XXXXXX";
        const int fd = ::mkstemp(p.data());
        check(fd >= 0);
        ::close(fd);
        return p;
    }();
    return path;
}

void write(const std::uint8_t* data, std::size_t size) {
    FILE* f = std::fopen(scratchPath().c_str(), "wb");
    check(f != nullptr);
    check(size == 0 || std::fwrite(data, 1, size, f) == size);
    std::fclose(f);
}

std::uint64_t itemBytes(const TensorEntry& t) {
    return t.location.count == 0 ? 0 : t.location.extentBytes / t.location.count;
}

void checkListing(const DumpReader& file, const ContainerListing& listing,
                  const std::vector<ZipMember>& members) {
    const std::string path = file.path().string();
    if (!listing.error.empty()) {
        check(listing.error.rfind(path + ": ", 0) == 0);
        check(listing.tensors.empty());
    }
    for (const std::string& w : listing.warnings)
        check(w.rfind(path + ": ", 0) == 0);
    for (const TensorEntry& t : listing.tensors) {
        const TensorLocation& at = t.location;
        check(at.count == 0 || at.extentBytes % at.count == 0);
        if (!at.contiguous()) {
            check(at.sizes.size() == at.strides.size() && at.sizes == t.shape);
            std::uint64_t last = 0;
            for (std::size_t d = 0; d < at.sizes.size(); ++d)
                last += (at.sizes[d] - 1) * at.strides[d];
            check(at.count == 0 || (last + 1) * itemBytes(t) <= at.extentBytes);
        }
        if (!at.deflated) {
            check(at.offset <= file.size() && at.extentBytes <= file.size() - at.offset);
            continue;
        }
        const auto member = std::find_if(members.begin(), members.end(),
                                         [&](const ZipMember& m) { return m.name == at.member; });
        check(member != members.end() && member->dataOffset == at.offset);
        check(at.skipBytes + at.extentBytes <= member->uncompressedSize);
        // The element reader's path: skip the header, then read the elements in chunks. Capped,
        // so that a small input that inflates hugely stays a fast one.
        InflateStream stream;
        stream.reset(file, at.offset, at.compressedBytes);
        if (!stream.skip(at.skipBytes)) continue;
        std::vector<unsigned char> chunk(4096);
        std::uint64_t left = std::min<std::uint64_t>(at.extentBytes, std::uint64_t{16} << 20);
        while (left > 0) {
            const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(left, 4096));
            const std::size_t got = stream.read(chunk.data(), want);
            left -= got;
            if (got < want) break;
        }
        check(stream.position() <= at.skipBytes + at.extentBytes);
        check(stream.error().empty() || stream.error().rfind(path + ": ", 0) == 0);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    write(data, size);
    DumpReader file;
    check(file.open(scratchPath(), ReadPattern::random));
    check(file.size() == size);

    checkListing(file, listNpy(file, "f.npy"), {});
    const ZipDirectory zip = readZipDirectory(file);
    if (!zip.error.empty()) check(zip.error.rfind(scratchPath() + ": ", 0) == 0);
    for (const ZipMember& m : zip.members)
        check(m.dataOffset <= size && m.compressedSize <= size - m.dataOffset);
    checkListing(file, listNpz(file, "f.npz"), zip.members);
    return 0;
}
