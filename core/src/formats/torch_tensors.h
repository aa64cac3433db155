#pragma once
// The tensors of an unpickled torch.save object, named by where they sit in its containers
// (dict keys and list / tuple indices joined by dots: "layer1.attn.out", "grads.0") and
// located in the storage members of the zip.
#include "formats/pickle_reader.h"
#include "formats/tensor_entry.h"
#include "formats/zip_directory.h"

#include <functional>
#include <string>

namespace dumpscope::detail {

struct TorchTensorSource {
    std::string path;         // the file, for messages
    std::string relativePath; // the locations' file
    std::string prefix;       // the archive's directory: "archive/"
    // The zip member of that name, or null.
    std::function<const ZipMember*(const std::string& name)> member;
};

// Adds an entry for each tensor in `pickle` to `out.tensors`, in the pickle's order, and a
// warning for each value that is neither a tensor, a container nor a plain number or string.
// Returns false, with out.error set, when a tensor's view lies outside its storage, a storage
// member is missing, or the containers nest too deep.
bool listPickledTensors(const Pickle& pickle, const TorchTensorSource& source,
                        ContainerListing& out);

} // namespace dumpscope::detail
