#include "formats/container.h"

#include <algorithm>
#include <cctype>

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

} // namespace

bool isContainerExtension(std::string_view extension) {
    return listerFor(extension) != nullptr;
}

ContainerListing listContainer(const std::filesystem::path& path, const std::string& relativePath) {
    ContainerListing listing;
    const Lister lister = listerFor(path.extension().string());
    if (!lister) {
        listing.error = path.string() + ": not a format dumpscope reads";
        return listing;
    }
    DumpReader file;
    if (!file.open(path, ReadPattern::random)) {
        listing.error = file.error();
        return listing;
    }
    return lister(file, relativePath);
}

} // namespace dumpscope::detail
