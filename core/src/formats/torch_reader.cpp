// listTorchSave: a torch.save file (torch >= 1.6) is a zip whose <archive>/data.pkl pickles the
// saved object and whose <archive>/data/<key> members hold the storages' bytes, stored. The
// pickle is read by the restricted unpickler; each tensor it rebuilds becomes an entry whose
// location is its view of a storage member.
#include "formats/pickle_reader.h"
#include "formats/tensor_entry.h"
#include "formats/torch_tensors.h"
#include "formats/zip_directory.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <unordered_map>

namespace dumpscope::detail {

namespace {

// The legacy format (torch < 1.6) begins with a protocol-2 pickle of this magic number.
constexpr std::array<unsigned char, 14> kLegacyMagic{0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c,
                                                     0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19};
// A byteorder member says "little" or "big": more than that is not one.
constexpr std::uint64_t kMaxByteorderBytes = 16;

ContainerListing refusal(std::string error) {
    ContainerListing listing;
    listing.error = std::move(error);
    return listing;
}

bool isLegacy(const DumpReader& file) {
    std::array<unsigned char, kLegacyMagic.size()> head{};
    if (file.size() < head.size()) return false;
    bool ended = false;
    return file.readExact(head.data(), head.size(), 0, ended).empty() && head == kLegacyMagic;
}

} // namespace

ContainerListing listTorchSave(const DumpReader& file, const std::string& relativePath) {
    const std::string path = file.path().string();
    if (isLegacy(file))
        return refusal(path + ": the legacy torch.save format (before torch 1.6) is not "
                              "supported: re-save with torch >= 1.6");
    ZipDirectory zip = readZipDirectory(file);
    if (!zip.error.empty()) return refusal(zip.error);
    if (zip.members.empty()) return refusal(path + ": an empty zip archive, not a torch.save file");

    // torch names the archive's one directory after the file (or "archive"): whatever it is,
    // every record lies under the first member's.
    const std::string& first = zip.members.front().name;
    const std::string prefix = first.substr(0, first.find('/') + 1);
    std::unordered_map<std::string_view, const ZipMember*> members;
    for (const ZipMember& m : zip.members)
        members.emplace(m.name, &m);
    const auto member = [&](const std::string& name) -> const ZipMember* {
        const auto it = members.find(name);
        return it == members.end() ? nullptr : it->second;
    };
    const bool script =
        std::any_of(zip.members.begin(), zip.members.end(), [&](const ZipMember& m) {
            return m.name == prefix + "constants.pkl" || m.name.rfind(prefix + "code/", 0) == 0;
        });
    if (script)
        return refusal(path + ": a TorchScript archive (torch.jit.save), not a torch.save file: "
                              "not supported (save the tensors with torch.save)");
    const ZipMember* pkl = member(prefix + "data.pkl");
    if (pkl == nullptr)
        return refusal(path + ": a zip archive without " + prefix +
                       "data.pkl: not a torch.save file");

    if (const ZipMember* order = member(prefix + "byteorder")) {
        std::string text;
        const std::string error = readMember(file, *order, kMaxByteorderBytes, false, text);
        if (!error.empty()) return refusal(error);
        if (text != "little") {
            for (char& c : text) // the member's bytes go into a one-line message
                if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e)
                    c = '?';
            return refusal(path + ": member " + order->name + " says the storages are \"" + text +
                           "\"-endian: only little-endian storages are read");
        }
    }

    std::string bytes;
    const std::string error = readMember(file, *pkl, kMaxPickleBytes, false, bytes);
    if (!error.empty()) return refusal(error);
    const Pickle pickle = readPickle(bytes, path + ": " + pkl->name);
    if (!pickle.error.empty()) return refusal(pickle.error);

    ContainerListing listing;
    const TorchTensorSource source{path, relativePath, prefix, member};
    if (!listPickledTensors(pickle, source, listing)) {
        listing.tensors.clear();
        listing.refused.clear();
        listing.warnings.clear();
    }
    return listing;
}

} // namespace dumpscope::detail
