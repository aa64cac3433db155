#pragma once
// Which reader lists a self-describing file: the one its extension names, else, for a file no
// extension claims (a raw .bin), the one whose magic its first bytes are. Whichever claims a file
// has the last word on it: a file it refuses is refused, never read as raw bytes.
#include "formats/tensor_entry.h"

#include <filesystem>
#include <string>
#include <string_view>

namespace dumpscope::detail {

// Whether `extension` (".npy", ".pt", …, compared without case) names a self-describing format.
bool isContainerExtension(std::string_view extension);

// Whether the first bytes of the file at `path` are a tensor format's magic: numpy's
// "\x93NUMPY", a zip's local header (an .npz, a torch.save file under another name), or a
// safetensors header (a length that fits the file, then a JSON object of printable text).
// False when the file cannot be opened: it is then read, and reported, as a raw dump.
bool claimedByMagic(const std::filesystem::path& path);

// Opens `path` and lists it with the reader that claims it (its extension, else its magic);
// relativePath goes into the locations. An open failure or a file no reader claims is the
// listing's error. A complex tensor is listed as its parts (formats/element_parts.h).
ContainerListing listContainer(const std::filesystem::path& path, const std::string& relativePath);

} // namespace dumpscope::detail
