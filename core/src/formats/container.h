#pragma once
// Which reader lists a self-describing file: chosen by its extension, the header then checked
// by that reader.
#include "formats/tensor_entry.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace dumpscope::detail {

// Whether `extension` (".npy", ".pt", …, compared without case) names a self-describing format.
bool isContainerExtension(std::string_view extension);
// Opens `path` and lists it with the reader its extension names; relativePath goes into the
// locations. An open failure or an unknown extension is the listing's error.
ContainerListing listContainer(const std::filesystem::path& path, const std::string& relativePath);

} // namespace dumpscope::detail
