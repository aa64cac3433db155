// listNpz: each NAME.npy member of the zip is a tensor keyed NAME, stored or deflated.
#include "formats/npy_header.h"
#include "formats/tensor_entry.h"
#include "formats/zip_directory.h"

#include <algorithm>
#include <set>

namespace dumpscope::detail {

namespace {

constexpr char kNpySuffix[] = ".npy";

std::string memberAt(const DumpReader& file, const ZipMember& member, std::uint64_t byte,
                     const std::string& what) {
    return file.path().string() + ": member " + member.name + ": byte " + std::to_string(byte) +
           ": " + what;
}

// The member's .npy header, read from its first (inflated) bytes. Empty on success, else why
// the member is skipped.
std::string readMemberHeader(const DumpReader& file, const ZipMember& member, NpyHeader& header) {
    std::string bytes;
    if (std::string e = readMember(file, member, kNpyPrefixBytes, true, bytes); !e.empty())
        return e;
    std::uint64_t headerBytes = 0;
    auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    if (NpyProblem p = npyHeaderBytes(data, bytes.size(), headerBytes); !p.ok())
        return memberAt(file, member, p.byte, p.what);
    if (headerBytes > member.uncompressedSize)
        return memberAt(file, member, 8,
                        "the header's length (" + std::to_string(headerBytes) +
                            " bytes with the magic) runs past the member's end (" +
                            std::to_string(member.uncompressedSize) + " bytes)");
    if (headerBytes > bytes.size()) {
        if (std::string e = readMember(file, member, headerBytes, true, bytes); !e.empty())
            return e;
        data = reinterpret_cast<const unsigned char*>(bytes.data());
    }
    if (NpyProblem p = parseNpyHeader(data, bytes.size(), header); !p.ok())
        return memberAt(file, member, p.byte, p.what);
    if (header.dataBytes > member.uncompressedSize - header.headerBytes)
        return memberAt(file, member, header.headerBytes,
                        "the member is truncated: " + std::to_string(header.count) +
                            " elements of " + header.typeName + " need " +
                            std::to_string(header.dataBytes) + " bytes, " +
                            std::to_string(member.uncompressedSize - header.headerBytes) +
                            " follow the header");
    return {};
}

// numpy names a member KEY.npy; a key with '/' becomes a member in a folder. The folders
// become dotted components, as torch.save's nested names are, so that the first one is the
// buffer's group.
std::string keyOf(const std::string& memberName) {
    std::string key = memberName.substr(0, memberName.size() - (sizeof kNpySuffix - 1));
    std::replace(key.begin(), key.end(), '/', '.');
    return key;
}

} // namespace

ContainerListing listNpz(const DumpReader& file, const std::string& relativePath) {
    ContainerListing listing;
    ZipDirectory zip = readZipDirectory(file);
    if (!zip.error.empty()) {
        listing.error = std::move(zip.error);
        return listing;
    }
    std::set<std::string> keys;
    for (const ZipMember& member : zip.members) {
        const std::size_t suffix = sizeof kNpySuffix - 1;
        if (member.name.size() <= suffix ||
            member.name.compare(member.name.size() - suffix, suffix, kNpySuffix) != 0) {
            if (member.name.empty() || member.name.back() != '/') // folders carry nothing
                listing.refused.push_back(
                    {member.name, file.path().string() + ": member " + member.name +
                                      ": not a .npy array (np.savez writes only .npy members)"});
            continue;
        }
        const std::string key = keyOf(member.name);
        if (!keys.insert(key).second) {
            listing.refused.push_back({key, file.path().string() + ": member " + member.name +
                                                ": a second tensor keyed " + key +
                                                ": which of the two is the tensor is unknown"});
            continue;
        }
        NpyHeader header;
        if (std::string e = readMemberHeader(file, member, header); !e.empty()) {
            listing.refused.push_back({key, std::move(e)});
            continue;
        }
        const bool deflated = member.method != 0;
        TensorEntry entry =
            npyEntry(header, relativePath,
                     deflated ? member.dataOffset : member.dataOffset + header.headerBytes);
        const std::uint64_t after = member.uncompressedSize - header.headerBytes - header.dataBytes;
        if (after > 0) // ignored, as numpy does; see listNpy
            listing.warnings.push_back(
                memberAt(file, member, header.headerBytes + header.dataBytes,
                         std::to_string(after) + " bytes after the array's data are ignored"));
        entry.key = key;
        entry.location.key = key;
        entry.location.member = member.name;
        if (deflated) {
            entry.location.deflated = true;
            entry.location.compressedBytes = member.compressedSize;
            entry.location.skipBytes = header.headerBytes;
            entry.location.inflatedBytes = member.uncompressedSize;
            entry.location.crc32 = member.crc32;
        }
        listing.tensors.push_back(std::move(entry));
    }
    return listing;
}

} // namespace dumpscope::detail
