#pragma once
// Which reader lists a self-describing file: the one its extension names, else, for a file no
// extension claims (a raw .bin), the one whose magic its first bytes are. Whichever claims a file
// has the last word on it: a file it refuses is refused, never read as raw bytes.
#include "formats/tensor_entry.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace dumpscope::detail {

// Whether `extension` (".npy", ".pt", …, compared without case) names a self-describing format.
bool isContainerExtension(std::string_view extension);

// Whether the first bytes of the regular file `name` in the directory open as `dirFd`, of
// `size` bytes, are a tensor format's magic: numpy's "\x93NUMPY", a zip's local header (an .npz,
// a torch.save file under another name), or a safetensors header (a length that fits the file,
// then a JSON object of printable text). Called while the directory is listed, so that the look
// costs an open, one read and a close by name in that directory and no path walk or stat.
// False when the file cannot be opened or read: it is then read, and reported, as a raw dump.
bool claimedByMagic(int dirFd, const char* name, std::uint64_t size);

// Opens `path` and lists it with the reader that claims it (its extension, else its magic);
// relativePath goes into the locations. An open failure or a file no reader claims is the
// listing's error. A complex tensor is listed as its parts (formats/element_parts.h).
ContainerListing listContainer(const std::filesystem::path& path, const std::string& relativePath);

} // namespace dumpscope::detail
