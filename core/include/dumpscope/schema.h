#pragma once

#include "dumpscope/dtype.h"
#include "dumpscope/shards.h"

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace dumpscope {

struct BufferSpec {
    std::string name; // logical name, e.g. "q_logits"
    std::string file; // on-disk basename after "step_<N>_", e.g. "h_q_logits"
    DType dtype = DType::f32;
    // Optional shape, outermost first: each dimension a number, a symbol of Schema::dims, or
    // "*" (whatever is left; at most once). Empty: a flat buffer.
    std::vector<std::string> shape;
    // What the buffer is computed from at the same step: buffer names, and group ids standing
    // for all of that group's buffers. Absent: the buffer keeps its group's dataflow edges (every
    // buffer of every direct upstream group). Present and empty: no dumped buffer feeds it.
    std::optional<std::vector<std::string>> inputs = std::nullopt;
};

// A named dimension: a fixed size, or the element count of another buffer at the same step.
struct DimSpec {
    std::optional<std::uint64_t> value;
    std::string lengthOf; // buffer name
};

struct GroupSpec {
    std::string id;    // short id used in the decision tree and JSON, e.g. "H"
    std::string label; // the reference's label, e.g. "H (head fwd outputs)"
    std::vector<BufferSpec> buffers;
};

struct GroupSpec;
namespace detail {
// Schema's lookups by group id and by buffer file, built on the first lookup so that they cost
// O(1) each instead of a scan of every group: a run of 100,000 groups looks each one up. A copy
// starts empty (the copy may gain groups). The index is rebuilt when the group list was
// reallocated or resized; a found entry is checked against the key, and a buffer not found
// by its file is looked for by a scan, since buffers added to a group leave the list
// as it was. The one change it does not see is a group id renamed in place after a lookup,
// which nothing does: ids are fixed once a schema is parsed or extended. Lookups may run on
// several threads.
class SchemaIndex {
  public:
    struct Maps;
    SchemaIndex() = default;
    SchemaIndex(const SchemaIndex&) {}
    SchemaIndex& operator=(const SchemaIndex&);
    ~SchemaIndex();
    std::shared_ptr<const Maps> of(const std::vector<GroupSpec>& groups) const;

  private:
    mutable std::mutex m_mutex;
    mutable std::shared_ptr<const Maps> m_maps;
};
} // namespace detail

struct Schema {
    std::string name;
    std::vector<GroupSpec> groups;
    // Directed edges (from, to) between group ids: data of `from` feeds `to`.
    std::vector<std::pair<std::string, std::string>> dataflow;
    std::map<std::string, DimSpec> dims;
    // Tensors split along an axis across the ranks ("shards"), as --shard gives them; after
    // AnalyzeOptions::shards, which the command line fills and which decide first.
    std::vector<ShardRule> shards;

    // Finds the buffer whose file basename is `rest`; returns (group index, buffer index).
    std::optional<std::pair<std::size_t, std::size_t>> findFile(const std::string& rest) const;
    const GroupSpec* group(const std::string& id) const;
    const BufferSpec* buffer(const std::string& name) const;
    // Direct upstream groups of `id` in the dataflow.
    std::vector<std::string> upstreamOf(const std::string& id) const;
    // Whether any buffer declares "inputs": without one, buffer-level dataflow is group-level.
    bool hasBufferInputs() const;
    // Builds the index of group() and findFile() now, on this thread, rather than on
    // the first lookup.
    void buildLookups() const { lookup.of(groups); }

    detail::SchemaIndex lookup; // of group() and findFile(); not part of the schema
};

// A schema that could not be loaded: names the source, line and column and what is wrong.
// Line and column are 0 when the file itself is refused (missing, not a regular file, too
// large), and the message then reads "SOURCE: what".
class SchemaError : public std::runtime_error {
  public:
    SchemaError(const std::string& source, int line, int column, const std::string& what);
    std::string source;
    int line = 0;
    int column = 0;
};

// The reference script's schema (groups G..K, 31 buffers, dataflow), compiled in.
const Schema& defaultSchema();

// The largest schema file loadSchemaFile() reads. The default schema is about 4 KiB; a model of
// 100,000 named tensors, each with its file and type, is about 12 MiB; the limit keeps a file
// named by mistake from being read into memory whole.
inline constexpr std::uint64_t kMaxSchemaFileBytes = std::uint64_t{32} << 20;

Schema parseSchema(std::string_view json, const std::string& sourceName);
// Reads a regular file (symlinks followed) of at most kMaxSchemaFileBytes and parses it; a
// directory, FIFO, device or socket is refused without being read.
Schema loadSchemaFile(const std::filesystem::path& path);

} // namespace dumpscope
