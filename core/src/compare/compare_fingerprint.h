#pragma once
// A buffer pair of which at least one side is known by its fingerprint alone (a capture log in
// hash mode): equal or not is decided by dsfp1 of the bytes, the type and the shape; how the
// elements differ cannot be, so a divergence has the kind fingerprint_only.
#include "compare/compare_sides.h"
#include "dumpscope/analyze.h"

namespace dumpscope::detail {

// `a` or `b` (or both) has `logged`; both are present. `dtype` is the buffer's element type
// as the side with bytes has it; `options.shape` its shape when known. `opened`, when not null,
// says which file was read.
BufferResult compareFingerprints(const BufferSource& a, const BufferSource& b, DType dtype,
                                 const CompareOptions& options, OpenedFiles* opened);

// A one-sided buffer known by its fingerprint: its element count, from the logged shape.
std::uint64_t loggedCount(const LoggedFingerprint& logged);

} // namespace dumpscope::detail
