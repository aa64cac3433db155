// listNpy: one .npy file is one tensor, its elements right after the header.
#include "formats/npy_header.h"
#include "formats/tensor_entry.h"

#include <algorithm>

namespace dumpscope::detail {

namespace {

std::string at(const DumpReader& file, std::uint64_t byte, const std::string& what) {
    return file.path().string() + ": byte " + std::to_string(byte) + ": " + what;
}

} // namespace

ContainerListing listNpy(const DumpReader& file, const std::string& relativePath) {
    ContainerListing listing;
    const std::uint64_t size = file.size();
    std::string bytes(static_cast<std::size_t>(std::min(size, kNpyPrefixBytes)), '\0');
    bool ended = false;
    if (std::string e = file.readExact(bytes.data(), bytes.size(), 0, ended); !e.empty()) {
        listing.error = std::move(e);
        return listing;
    }
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    std::uint64_t headerBytes = 0;
    if (NpyProblem p = npyHeaderBytes(data, bytes.size(), headerBytes); !p.ok()) {
        listing.error = at(file, p.byte, p.what);
        return listing;
    }
    if (headerBytes > size) {
        listing.error = at(file, 8,
                           "the header's length (" + std::to_string(headerBytes) +
                               " bytes with the magic) runs past the end of the file (" +
                               std::to_string(size) + " bytes)");
        return listing;
    }
    if (headerBytes > bytes.size()) {
        bytes.resize(static_cast<std::size_t>(headerBytes));
        if (std::string e = file.readExact(bytes.data(), bytes.size(), 0, ended); !e.empty()) {
            listing.error = std::move(e);
            return listing;
        }
        data = reinterpret_cast<const unsigned char*>(bytes.data());
    }
    NpyHeader header;
    if (NpyProblem p = parseNpyHeader(data, static_cast<std::size_t>(headerBytes), header);
        !p.ok()) {
        listing.error = at(file, p.byte, p.what);
        return listing;
    }
    const std::uint64_t room = size - header.headerBytes;
    if (header.dataBytes > room) {
        listing.error =
            at(file, header.headerBytes,
               "the file is truncated: " + std::to_string(header.count) + " elements of " +
                   header.typeName + " need " + std::to_string(header.dataBytes) + " bytes, " +
                   std::to_string(room) + " follow the header");
        return listing;
    }
    // numpy reads exactly the array's bytes and ignores what follows; so does dumpscope, but
    // says so: bytes appended to a dump are worth knowing about.
    if (header.dataBytes < room)
        listing.warnings.push_back(at(file, header.headerBytes + header.dataBytes,
                                      std::to_string(room - header.dataBytes) +
                                          " bytes after the array's data are ignored"));
    listing.tensors.push_back(npyEntry(header, relativePath, header.headerBytes));
    return listing;
}

} // namespace dumpscope::detail
