#include "formats/container.h"

#include "formats/element_parts.h"
#include "formats/little_endian.h"
#include "formats/zip_directory.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>

#include <fcntl.h>
#include <unistd.h>

namespace dumpscope::detail {

namespace {

using Lister = ContainerListing (*)(const DumpReader&, const std::string&);

Lister listerFor(std::string_view extension) {
    std::string e(extension);
    std::transform(e.begin(), e.end(), e.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (e == ".npy") return &listNpy;
    if (e == ".npz") return &listNpz;
    if (e == ".safetensors") return &listSafetensors;
    if (e == ".pt" || e == ".pth") return &listTorchSave;
    return nullptr;
}

// Enough of a file's front for every magic below, and for the start of a safetensors header.
constexpr std::size_t kSniffBytes = 64;
// The safetensors reference implementation's limit on a header's length.
constexpr std::uint64_t kMaxSafetensorsHeader = 100000000;

bool printable(unsigned char c) {
    return c >= 0x20 || c == '\t' || c == '\n' || c == '\r';
}

// A zip's local header: the signature, then a member name of printable bytes.
bool zipMagic(const unsigned char* b, std::size_t n) {
    if (n < 31 || b[0] != 'P' || b[1] != 'K' || b[2] != 3 || b[3] != 4) return false;
    const std::size_t nameBytes = loadLe16(b + 26);
    if (nameBytes == 0) return false;
    for (std::size_t i = 30; i < n && i < 30 + nameBytes; ++i)
        if (b[i] < 0x20) return false;
    return true;
}

// A safetensors header: its length fits the file, and the header's bytes read so far are the
// start of a JSON object's text. A raw dump of small integers can begin with a length that fits
// and a '{' byte, but not with text after it.
bool safetensorsMagic(const unsigned char* b, std::size_t n, std::uint64_t fileSize) {
    if (n < 10 || b[8] != '{') return false;
    const std::uint64_t length = loadLe64(b);
    if (length < 2 || length > kMaxSafetensorsHeader || length > fileSize - 8) return false;
    for (std::size_t i = 8; i < n && i < 8 + length; ++i)
        if (!printable(b[i])) return false;
    return true;
}

enum class Magic { none, npy, zip, safetensors };

// The magic of a file of `fileSize` bytes whose first `n` bytes (all of them up to kSniffBytes)
// are `head`.
Magic magicOfHead(const unsigned char* head, std::size_t n, std::uint64_t fileSize) {
    static constexpr std::array<unsigned char, 6> npy{0x93, 'N', 'U', 'M', 'P', 'Y'};
    if (n >= npy.size() && std::equal(npy.begin(), npy.end(), head)) return Magic::npy;
    if (zipMagic(head, n)) return Magic::zip;
    if (safetensorsMagic(head, n, fileSize)) return Magic::safetensors;
    return Magic::none;
}

Magic magicOf(const DumpReader& file) {
    std::array<unsigned char, kSniffBytes> head{};
    const std::size_t n =
        static_cast<std::size_t>(std::min<std::uint64_t>(file.size(), head.size()));
    bool ended = false;
    if (!file.readExact(head.data(), n, 0, ended).empty()) return Magic::none;
    return magicOfHead(head.data(), n, file.size());
}

// A zip claimed by its magic is a torch.save file when it pickles one, else an .npz.
Lister zipLister(const DumpReader& file) {
    const ZipDirectory zip = readZipDirectory(file);
    const bool pickled = std::any_of(zip.members.begin(), zip.members.end(), [](const auto& m) {
        return m.name == "data.pkl" ||
               (m.name.size() > 9 && m.name.compare(m.name.size() - 9, 9, "/data.pkl") == 0);
    });
    return pickled || !zip.error.empty() ? &listTorchSave : &listNpz;
}

Lister magicLister(const DumpReader& file) {
    switch (magicOf(file)) {
    case Magic::npy:
        return &listNpy;
    case Magic::zip:
        return zipLister(file);
    case Magic::safetensors:
        return &listSafetensors;
    case Magic::none:
        break;
    }
    return nullptr;
}

} // namespace

bool isContainerExtension(std::string_view extension) {
    return listerFor(extension) != nullptr;
}

bool claimedByMagic(int dirFd, const char* name, std::uint64_t size) {
    // Shorter than numpy's magic, the shortest: no format claims it, and it is not opened.
    if (size < 6) return false;
    // Non-blocking: a FIFO swapped in since the listing's stat neither blocks the open nor
    // reads (pread on it fails).
    const int fd = ::openat(dirFd, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) return false;
    std::array<unsigned char, kSniffBytes> head{};
    const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(size, head.size()));
    std::size_t n = 0;
    while (n < want) {
        const ssize_t got = ::pread(fd, head.data() + n, want - n, static_cast<off_t>(n));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) break;
        n += static_cast<std::size_t>(got);
    }
    ::close(fd);
    // Shorter than its stat said: the file changed since; the compare reports it.
    return n == want && magicOfHead(head.data(), n, size) != Magic::none;
}

ContainerListing listContainer(const std::filesystem::path& path, const std::string& relativePath) {
    ContainerListing listing;
    DumpReader file;
    if (!file.open(path, ReadPattern::random)) {
        listing.error = file.error();
        return listing;
    }
    Lister lister = listerFor(path.extension().string());
    if (!lister) lister = magicLister(file);
    if (!lister) {
        listing.error = path.string() + ": not a format dumpscope reads";
        return listing;
    }
    listing = lister(file, relativePath);
    for (TensorEntry& entry : listing.tensors)
        listComplexAsParts(entry);
    return listing;
}

} // namespace dumpscope::detail
