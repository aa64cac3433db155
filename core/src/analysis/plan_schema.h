#pragma once

// The schema a plan reads with: the one given (or the default) when the runs' files are its
// buffers, else the runs' own terms; either way extended by a group for each self-describing
// buffer it does not know.

#include "dumpscope/analyze.h"

#include "analysis/make_plan.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace dumpscope::detail {

// The schema's buffers by file and by name, looked up once per file: a schema may list tens of
// thousands of buffers, and searching it for each file would be quadratic. Holds views into the
// schema indexed, which must outlive it (or be indexed anew).
class BufferSpecIndex {
  public:
    // Forgets what was indexed before.
    void index(const Schema& schema);

    // Whether a tensor key names a schema buffer, by its file or by its name.
    bool knows(const std::string& rest) const {
        return m_byFile.count(rest) > 0 || m_byName.count(rest) > 0;
    }
    // The (group, buffer) a tensor key names in `schema` (the one indexed): a tensor key may
    // name a schema buffer by its name as well as by its file's basename.
    std::optional<std::pair<std::size_t, std::size_t>> find(const Schema& schema,
                                                            const std::string& rest) const;
    // The buffer of that name; null when none.
    const BufferSpec* named(const std::string& name) const {
        const auto it = m_byName.find(name);
        return it == m_byName.end() ? nullptr : it->second;
    }

  private:
    std::unordered_map<std::string_view, std::pair<std::size_t, std::size_t>> m_byFile;
    std::unordered_map<std::string_view, const BufferSpec*> m_byName;
};

// Settles an.schema (the given or default schema on entry) and an.terms, an.groupDepth and
// an.openedGroups from the runs' buffers `byStep`; leaves `index` indexing the schema settled.
void settleSchema(Analysis& an, const AnalyzeOptions& options, const ByStep& byStep,
                  BufferSpecIndex& index);

} // namespace dumpscope::detail
