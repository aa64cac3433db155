#pragma once

#include "dumpscope/result.h"

#include <QString>

#include <memory>

// What the element views share about the buffer pair they read: why a selected buffer has no
// pair to read (empty: it has one), and the key that says a newer
// snapshot still names the same, unchanged pair (so a computed picture is kept).
namespace buffer_pair {

const dumpscope::BufferResult* find(const std::shared_ptr<const dumpscope::Analysis>& analysis,
                                    int bufferIndex);
QString noPairReason(const dumpscope::Analysis* analysis, const dumpscope::BufferResult* buffer);
// Every element view's one message for a buffer without element data: compared by fingerprints
// alone (its elements need full tensors, and the capture call that writes them), across
// precisions or as joined shards (what the pair is, and its verdict), or a rank's disagreeing
// copy of a replicated tensor that the other run does not hold. Empty when it has element data.
QString noElementData(const dumpscope::Analysis& analysis, const dumpscope::BufferResult& buffer);
QString key(const dumpscope::Analysis& analysis, const dumpscope::BufferResult& buffer);

} // namespace buffer_pair
