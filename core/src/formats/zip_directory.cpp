#include "formats/zip_directory.h"

#include "formats/inflate_stream.h"
#include "formats/little_endian.h"

#include <zlib.h>

#include <algorithm>

namespace dumpscope::detail {

namespace {

constexpr std::uint64_t kMaxDeflateRatio = 1032;

constexpr std::uint32_t kEndSignature = 0x06054b50;
constexpr std::uint32_t kZip64LocatorSignature = 0x07064b50;
constexpr std::uint32_t kZip64EndSignature = 0x06064b50;
constexpr std::uint32_t kCentralSignature = 0x02014b50;
constexpr std::uint32_t kLocalSignature = 0x04034b50;
constexpr std::size_t kEndBytes = 22;
constexpr std::size_t kZip64LocatorBytes = 20;
constexpr std::size_t kZip64EndBytes = 56;
constexpr std::size_t kCentralBytes = 46;
constexpr std::size_t kLocalBytes = 30;
constexpr std::uint64_t kMaxCommentBytes = 0xffff;
constexpr std::uint16_t kZip64ExtraId = 0x0001;
constexpr std::uint16_t kFlagEncrypted = 0x0001;
constexpr std::uint32_t kSaturated32 = 0xffffffff;

std::string at(const DumpReader& file, std::uint64_t byte, const std::string& what) {
    return file.path().string() + ": byte " + std::to_string(byte) + ": " + what;
}

// Whether [offset, offset + size) lies within [0, limit), without overflowing.
bool fits(std::uint64_t offset, std::uint64_t size, std::uint64_t limit) {
    return offset <= limit && size <= limit - offset;
}

// Where the central directory is, from the end record (and the zip64 one when there is one).
struct EndRecord {
    std::uint64_t entries = 0;
    std::uint64_t directoryBytes = 0;
    std::uint64_t directoryOffset = 0;
    std::uint64_t recordByte = 0; // the record that gave the three above, for messages
    std::uint64_t limit = 0;      // the first byte after the space the directory may use
};

std::string readZip64End(const DumpReader& file, std::uint64_t locatorByte, EndRecord& end) {
    unsigned char locator[kZip64LocatorBytes];
    bool ended = false;
    if (std::string e = file.readExact(locator, sizeof locator, locatorByte, ended); !e.empty())
        return e;
    const std::uint64_t recordByte = loadLe64(locator + 8);
    if (loadLe32(locator + 16) > 1)
        return at(file, locatorByte, "split or multi-disk zip archives are not supported");
    if (!fits(recordByte, kZip64EndBytes, locatorByte))
        return at(file, locatorByte + 8,
                  "the zip64 end record's offset " + std::to_string(recordByte) +
                      " lies outside the archive");
    unsigned char record[kZip64EndBytes];
    if (std::string e = file.readExact(record, sizeof record, recordByte, ended); !e.empty())
        return e;
    if (loadLe32(record) != kZip64EndSignature)
        return at(file, recordByte,
                  "no zip64 end-of-central-directory record where its locator "
                  "points");
    if (loadLe32(record + 16) != 0 || loadLe32(record + 20) != 0)
        return at(file, recordByte, "split or multi-disk zip archives are not supported");
    end.entries = loadLe64(record + 32);
    end.directoryBytes = loadLe64(record + 40);
    end.directoryOffset = loadLe64(record + 48);
    end.recordByte = recordByte;
    end.limit = recordByte;
    return {};
}

std::string readEnd(const DumpReader& file, EndRecord& end) {
    const std::uint64_t size = file.size();
    if (size < kEndBytes)
        return at(file, 0,
                  "not a zip archive: " + std::to_string(size) +
                      " bytes, too short for an end-of-central-directory record");
    const std::uint64_t tailBytes = std::min<std::uint64_t>(size, kEndBytes + kMaxCommentBytes);
    const std::uint64_t tailByte = size - tailBytes;
    std::string tail(static_cast<std::size_t>(tailBytes), '\0');
    bool ended = false;
    if (std::string e = file.readExact(tail.data(), tail.size(), tailByte, ended); !e.empty())
        return e;
    const auto* bytes = reinterpret_cast<const unsigned char*>(tail.data());
    // The record is searched backwards: the last one whose comment fits the file is the real one
    // (an earlier match can be inside a member's data or the comment).
    std::size_t found = tail.size();
    for (std::size_t i = tail.size() - kEndBytes + 1; i-- > 0;) {
        if (loadLe32(bytes + i) == kEndSignature &&
            i + kEndBytes + loadLe16(bytes + i + 20) <= tail.size()) {
            found = i;
            break;
        }
    }
    if (found == tail.size())
        return at(file, tailByte,
                  "not a zip archive: no end-of-central-directory record in its "
                  "last " +
                      std::to_string(tailBytes) + " bytes");
    const unsigned char* record = bytes + found;
    const std::uint64_t recordByte = tailByte + found;
    if (loadLe16(record + 4) != 0 || loadLe16(record + 6) != 0 ||
        loadLe16(record + 8) != loadLe16(record + 10))
        return at(file, recordByte, "split or multi-disk zip archives are not supported");
    if (recordByte >= kZip64LocatorBytes) {
        unsigned char signature[4];
        if (std::string e = file.readExact(signature, 4, recordByte - kZip64LocatorBytes, ended);
            !e.empty())
            return e;
        if (loadLe32(signature) == kZip64LocatorSignature)
            return readZip64End(file, recordByte - kZip64LocatorBytes, end);
    }
    end.entries = loadLe16(record + 10);
    end.directoryBytes = loadLe32(record + 12);
    end.directoryOffset = loadLe32(record + 16);
    end.recordByte = recordByte;
    end.limit = recordByte;
    return {};
}

// The zip64 extra field holds, in this order, each of the four values whose 32-bit (or 16-bit)
// field in the central entry is saturated, and only those.
std::string applyZip64Extra(const DumpReader& file, std::uint64_t extraByte,
                            const unsigned char* extra, std::size_t extraBytes, ZipMember& member,
                            std::uint64_t& localHeader, bool sizeSaturated,
                            bool compressedSaturated, bool offsetSaturated) {
    std::size_t p = 0;
    while (p + 4 <= extraBytes) {
        const std::uint16_t id = loadLe16(extra + p);
        const std::size_t blockBytes = loadLe16(extra + p + 2);
        if (p + 4 + blockBytes > extraBytes)
            return at(file, extraByte + p,
                      "member " + member.name + ": its extra field " + std::to_string(id) +
                          " runs past the entry");
        if (id == kZip64ExtraId) {
            const unsigned char* field = extra + p + 4;
            std::size_t used = 0;
            auto take = [&](std::uint64_t& value) {
                if (used + 8 > blockBytes) return false;
                value = loadLe64(field + used);
                used += 8;
                return true;
            };
            if ((sizeSaturated && !take(member.uncompressedSize)) ||
                (compressedSaturated && !take(member.compressedSize)) ||
                (offsetSaturated && !take(localHeader)))
                return at(file, extraByte + p,
                          "member " + member.name + ": its zip64 extra field is too short");
            return {};
        }
        p += 4 + blockBytes;
    }
    if (sizeSaturated || compressedSaturated || offsetSaturated)
        return at(file, extraByte,
                  "member " + member.name +
                      ": saturated sizes or offset without a zip64 extra field");
    return {};
}

// One central directory entry at `p` of `directory`; advances p past it. `localHeader` receives
// the member's local header offset.
std::string readCentralEntry(const DumpReader& file, const std::string& directory,
                             std::uint64_t directoryByte, std::size_t& p, ZipMember& member,
                             std::uint64_t& localHeader) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(directory.data());
    const std::uint64_t entryByte = directoryByte + p;
    if (p + kCentralBytes > directory.size() || loadLe32(bytes + p) != kCentralSignature)
        return at(file, entryByte, "no central directory entry where one was expected");
    const unsigned char* entry = bytes + p;
    const std::size_t nameBytes = loadLe16(entry + 28);
    const std::size_t extraBytes = loadLe16(entry + 30);
    const std::size_t commentBytes = loadLe16(entry + 32);
    if (p + kCentralBytes + nameBytes + extraBytes + commentBytes > directory.size())
        return at(file, entryByte, "a central directory entry runs past the directory's end");
    member.name.assign(directory, p + kCentralBytes, nameBytes);
    if ((loadLe16(entry + 8) & kFlagEncrypted) != 0)
        return at(file, entryByte, "member " + member.name + " is encrypted: not supported");
    member.method = loadLe16(entry + 10);
    member.crc32 = loadLe32(entry + 16);
    member.compressedSize = loadLe32(entry + 20);
    member.uncompressedSize = loadLe32(entry + 24);
    localHeader = loadLe32(entry + 42);
    const std::size_t extraAt = p + kCentralBytes + nameBytes;
    std::string e =
        applyZip64Extra(file, directoryByte + extraAt, bytes + extraAt, extraBytes, member,
                        localHeader, loadLe32(entry + 24) == kSaturated32,
                        loadLe32(entry + 20) == kSaturated32, loadLe32(entry + 42) == kSaturated32);
    p += kCentralBytes + nameBytes + extraBytes + commentBytes;
    return e;
}

// The member's data starts after its local header, whose own name and extra lengths may differ
// from the central entry's (a zip64 extra field in one only, for instance).
std::string locateData(const DumpReader& file, std::uint64_t localHeader, std::uint64_t dataLimit,
                       ZipMember& member) {
    if (!fits(localHeader, kLocalBytes, dataLimit))
        return at(file, localHeader,
                  "member " + member.name +
                      ": its local header lies outside the archive's data "
                      "(which ends at byte " +
                      std::to_string(dataLimit) + ")");
    unsigned char local[kLocalBytes];
    bool ended = false;
    if (std::string e = file.readExact(local, sizeof local, localHeader, ended); !e.empty())
        return e;
    if (loadLe32(local) != kLocalSignature)
        return at(file, localHeader, "member " + member.name + ": no local header signature");
    member.dataOffset = localHeader + kLocalBytes + loadLe16(local + 26) + loadLe16(local + 28);
    if (!fits(member.dataOffset, member.compressedSize, dataLimit))
        return at(file, member.dataOffset,
                  "member " + member.name + ": its " + std::to_string(member.compressedSize) +
                      " bytes of data run past byte " + std::to_string(dataLimit) +
                      ", where the archive's data ends");
    if (member.method == 0 && member.compressedSize != member.uncompressedSize)
        return at(file, localHeader,
                  "stored member " + member.name + ": " + std::to_string(member.compressedSize) +
                      " bytes stored for a size of " + std::to_string(member.uncompressedSize));
    // Deflate cannot expand a byte past 1032 (a 258-byte match per 2 bits): a larger claim is a
    // lie, and work is bounded by the bytes on disk, not by what a directory claims.
    if (member.method == 8 && member.uncompressedSize / kMaxDeflateRatio > member.compressedSize)
        return at(file, localHeader,
                  "deflated member " + member.name + ": " + std::to_string(member.compressedSize) +
                      " compressed bytes cannot inflate to the " +
                      std::to_string(member.uncompressedSize) + " its directory claims");
    return {};
}

// Members whose headers and data overlap another's: the shape of a zip bomb, never what a
// writer produces.
std::string checkOverlap(const DumpReader& file, const std::vector<ZipMember>& members,
                         const std::vector<std::uint64_t>& localHeaders) {
    std::vector<std::size_t> order(members.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return localHeaders[a] < localHeaders[b]; });
    for (std::size_t k = 1; k < order.size(); ++k) {
        const ZipMember& before = members[order[k - 1]];
        if (before.dataOffset + before.compressedSize > localHeaders[order[k]])
            return at(file, localHeaders[order[k]],
                      "member " + members[order[k]].name + " overlaps member " + before.name);
    }
    return {};
}

std::string withMember(const DumpReader& file, const ZipMember& member,
                       const std::string& fileError) {
    const std::string prefix = file.path().string() + ": ";
    const std::string rest = fileError.compare(0, prefix.size(), prefix) == 0
                                 ? fileError.substr(prefix.size())
                                 : fileError;
    return prefix + "member " + member.name + ": " + rest;
}

} // namespace

ZipDirectory readZipDirectory(const DumpReader& file) {
    ZipDirectory result;
    EndRecord end;
    if (std::string e = readEnd(file, end); !e.empty()) {
        result.error = std::move(e);
        return result;
    }
    if (end.entries > kMaxZipMembers) {
        result.error = at(file, end.recordByte,
                          std::to_string(end.entries) + " members: more than the " +
                              std::to_string(kMaxZipMembers) + " dumpscope reads");
        return result;
    }
    if (end.directoryBytes > kMaxZipDirectoryBytes) {
        result.error = at(file, end.recordByte,
                          "a central directory of " + std::to_string(end.directoryBytes) +
                              " bytes: more than the " + std::to_string(kMaxZipDirectoryBytes) +
                              " dumpscope reads");
        return result;
    }
    if (!fits(end.directoryOffset, end.directoryBytes, end.limit)) {
        result.error = at(file, end.recordByte,
                          "the central directory (" + std::to_string(end.directoryBytes) +
                              " bytes at byte " + std::to_string(end.directoryOffset) +
                              ") runs past the end record at byte " + std::to_string(end.limit));
        return result;
    }
    if (end.entries > end.directoryBytes / kCentralBytes) {
        result.error = at(file, end.recordByte,
                          std::to_string(end.entries) +
                              " members cannot fit in a central "
                              "directory of " +
                              std::to_string(end.directoryBytes) + " bytes");
        return result;
    }
    std::string directory(static_cast<std::size_t>(end.directoryBytes), '\0');
    bool ended = false;
    if (std::string e =
            file.readExact(directory.data(), directory.size(), end.directoryOffset, ended);
        !e.empty()) {
        result.error = std::move(e);
        return result;
    }
    std::vector<ZipMember> members(static_cast<std::size_t>(end.entries));
    std::vector<std::uint64_t> localHeaders(members.size());
    std::size_t p = 0;
    for (std::size_t i = 0; i < members.size(); ++i) {
        std::string e =
            readCentralEntry(file, directory, end.directoryOffset, p, members[i], localHeaders[i]);
        if (e.empty()) e = locateData(file, localHeaders[i], end.directoryOffset, members[i]);
        if (!e.empty()) {
            result.error = std::move(e);
            return result;
        }
    }
    if (std::string e = checkOverlap(file, members, localHeaders); !e.empty()) {
        result.error = std::move(e);
        return result;
    }
    result.members = std::move(members);
    return result;
}

std::string readMember(const DumpReader& file, const ZipMember& member, std::uint64_t maxBytes,
                       bool prefixOnly, std::string& out) {
    out.clear();
    if (member.method != 0 && member.method != 8)
        return withMember(file, member,
                          at(file, member.dataOffset,
                             "compression method " + std::to_string(member.method) +
                                 " is not supported (only stored and deflated)"));
    if (!prefixOnly && member.uncompressedSize > maxBytes)
        return withMember(file, member,
                          at(file, member.dataOffset,
                             std::to_string(member.uncompressedSize) + " bytes: more than the " +
                                 std::to_string(maxBytes) + " read for it"));
    const std::uint64_t want = std::min(member.uncompressedSize, maxBytes);
    out.resize(static_cast<std::size_t>(want));
    if (member.method == 0) {
        bool ended = false;
        if (std::string e = file.readExact(out.data(), out.size(), member.dataOffset, ended);
            !e.empty()) {
            out.clear();
            return withMember(file, member, e);
        }
    } else {
        InflateStream stream;
        stream.reset(file, member.dataOffset, member.compressedSize);
        const std::size_t got = stream.read(out.data(), out.size());
        if (!stream.error().empty()) {
            out.clear();
            return withMember(file, member, stream.error());
        }
        if (got < out.size()) {
            out.clear();
            return withMember(file, member,
                              at(file, member.dataOffset,
                                 "inflates to " + std::to_string(got) +
                                     " bytes where the "
                                     "directory says " +
                                     std::to_string(member.uncompressedSize)));
        }
    }
    if (!prefixOnly || want == member.uncompressedSize) {
        // The whole member is in hand: its checksum is the one check left on its bytes.
        const auto crc = crc32_z(0L, reinterpret_cast<const Bytef*>(out.data()), out.size());
        if (crc != member.crc32) {
            out.clear();
            return withMember(file, member,
                              at(file, member.dataOffset,
                                 "its CRC-32 does not match the "
                                 "directory's"));
        }
    }
    return {};
}

} // namespace dumpscope::detail
