#include "dumpscope/schema.h"

#include "io/regular_file.h"
#include "schema/schema_graph.h"
#include "schema/text_position.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <unistd.h>

namespace dumpscope::detail {
extern const std::string_view kDefaultSchemaJson;
} // namespace dumpscope::detail

namespace dumpscope {

namespace {

using nlohmann::json;

std::string formatError(const std::string& source, int line, int column, const std::string& what) {
    if (line == 0) return source + ": " + what; // about the file, not a place in its text
    return source + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + what;
}

// 1-based line and column of byte `offset` in `text`, the column in bytes.
std::pair<int, int> lineColumn(std::string_view text, std::size_t offset) {
    return detail::lineColumn(text, offset, detail::ColumnUnit::byte);
}

// nlohmann does not keep positions of parsed values, so semantic errors are located by finding
// the offending JSON text (the n-th occurrence of `needle`); line 1, column 1 when not found.
class Locator {
  public:
    Locator(std::string_view text, std::string source)
        : m_text(text), m_source(std::move(source)) {}

    [[noreturn]] void fail(const std::string& what, const std::string& needle = {},
                           int occurrence = 1) const {
        std::size_t pos = std::string_view::npos;
        if (!needle.empty()) {
            pos = 0;
            for (int i = 0; i < occurrence; ++i) {
                pos = m_text.find(needle, i == 0 ? 0 : pos + 1);
                if (pos == std::string_view::npos) break;
            }
        }
        failAt(what, pos);
    }

    // Fails at byte `pos` of the text; line 1, column 1 when it is npos.
    [[noreturn]] void failAt(const std::string& what, std::size_t pos) const {
        auto [line, column] =
            pos == std::string_view::npos ? std::pair{1, 1} : lineColumn(m_text, pos);
        throw SchemaError(m_source, line, column, what);
    }

    std::string_view text() const { return m_text; }

  private:
    std::string_view m_text;
    std::string m_source;
};

std::string jsonQuoted(const std::string& s) {
    return json(s).dump();
}

std::string requireString(const json& obj, const char* key, const std::string& where,
                          const Locator& loc, bool required = true) {
    auto it = obj.find(key);
    if (it == obj.end()) {
        if (required) loc.fail(where + ": missing \"" + key + "\"", obj.dump());
        return {};
    }
    if (!it->is_string() || it->get<std::string>().empty())
        loc.fail(where + ": \"" + key + "\" must be a non-empty string",
                 "\"" + std::string(key) + "\"");
    return it->get<std::string>();
}

void rejectUnknownKeys(const json& obj, const std::set<std::string>& known,
                       const std::string& where, const Locator& loc) {
    for (const auto& [key, value] : obj.items())
        if (!known.count(key))
            loc.fail(where + ": unknown key " + jsonQuoted(key), jsonQuoted(key));
}

BufferSpec parseBuffer(const json& b, const std::string& where, const Locator& loc) {
    if (!b.is_object()) loc.fail(where + ": a buffer must be an object");
    rejectUnknownKeys(b, {"name", "file", "dtype", "shape", "inputs"}, where, loc);
    BufferSpec spec;
    spec.name = requireString(b, "name", where, loc);
    spec.file = requireString(b, "file", where + " (" + spec.name + ")", loc);
    const auto dtype = requireString(b, "dtype", where + " (" + spec.name + ")", loc);
    auto t = parseDType(dtype);
    if (!t)
        loc.fail(where + " (" + spec.name + "): unknown element type " + jsonQuoted(dtype) +
                     " (known: f16, bf16, f32, f64, i8, u8, i16, u16, i32, u32, i64, u64, "
                     "f8_e4m3, f8_e5m2)",
                 jsonQuoted(dtype));
    spec.dtype = *t;
    if (auto shape = b.find("shape"); shape != b.end()) {
        if (!shape->is_array())
            loc.fail(where + " (" + spec.name + "): \"shape\" must be an array of sizes and names",
                     "\"shape\"");
        for (const auto& d : *shape) {
            if (d.is_number_unsigned() && d.get<std::uint64_t>() > 0)
                spec.shape.push_back(std::to_string(d.get<std::uint64_t>()));
            else if (d.is_string() && !d.get<std::string>().empty())
                spec.shape.push_back(d.get<std::string>());
            else
                loc.fail(where + " (" + spec.name +
                             "): a shape dimension must be a positive number or a name",
                         "\"shape\"");
        }
    }
    if (auto inputs = b.find("inputs"); inputs != b.end()) {
        const auto refuse = [&] {
            loc.fail(where + " (" + spec.name +
                         "): \"inputs\" must be an array of buffer names and group ids",
                     "\"inputs\"");
        };
        if (!inputs->is_array()) refuse();
        spec.inputs.emplace();
        for (const auto& entry : *inputs) {
            if (!entry.is_string() || entry.get<std::string>().empty()) refuse();
            spec.inputs->push_back(entry.get<std::string>());
        }
    }
    return spec;
}

// A group id as a message shows it: bare when it is a plain word, as in the decision tree's
// "G → H", else JSON-quoted so that spaces, quotes and control characters stay visible.
std::string shownId(const std::string& id) {
    const bool plain = !id.empty() && std::all_of(id.begin(), id.end(), [](unsigned char c) {
        return std::isalnum(c) || c == '_' || c == '-' || c == '.';
    });
    return plain ? id : jsonQuoted(id);
}

// Where the edge [from, to] stands in the text: the '[' of the first array after "dataflow"
// holding exactly those two strings, whatever the whitespace; npos when it is spelled
// differently (escapes), and the caller falls back to "dataflow" itself.
std::size_t findEdge(std::string_view text, const std::string& from, const std::string& to) {
    const auto skipSpace = [&](std::size_t i) {
        while (i < text.size() &&
               (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
            ++i;
        return i;
    };
    const std::string qFrom = jsonQuoted(from), qTo = jsonQuoted(to);
    const std::size_t flow = text.find("\"dataflow\"");
    if (flow == std::string_view::npos) return std::string_view::npos;
    for (std::size_t open = text.find('[', flow); open != std::string_view::npos;
         open = text.find('[', open + 1)) {
        std::size_t i = skipSpace(open + 1);
        if (text.compare(i, qFrom.size(), qFrom) != 0) continue;
        i = skipSpace(i + qFrom.size());
        if (i >= text.size() || text[i] != ',') continue;
        i = skipSpace(i + 1);
        if (text.compare(i, qTo.size(), qTo) != 0) continue;
        i = skipSpace(i + qTo.size());
        if (i < text.size() && text[i] == ']') return open;
    }
    return std::string_view::npos;
}

// The root cause is the divergent group whose upstream groups are all equal. Around a cycle
// every group has a divergent upstream, so none would be named (an empty root cause): a
// dataflow must be acyclic, and the first cycle found is refused, named, at the edge that
// closes it.
void rejectCycles(const Schema& schema, const Locator& loc) {
    std::map<std::string, std::size_t> index;
    for (std::size_t g = 0; g < schema.groups.size(); ++g)
        index[schema.groups[g].id] = g;
    std::vector<std::vector<std::size_t>> downstream(schema.groups.size());
    for (const auto& [from, to] : schema.dataflow)
        downstream[index.at(from)].push_back(index.at(to));
    const auto cycle = detail::findCycle(downstream);
    if (cycle.empty()) return;
    std::string text;
    for (const std::size_t g : cycle)
        text += shownId(schema.groups[g].id) + " → ";
    text += shownId(schema.groups[cycle.front()].id);
    std::size_t at =
        findEdge(loc.text(), schema.groups[cycle.back()].id, schema.groups[cycle.front()].id);
    if (at == std::string_view::npos) at = loc.text().find("\"dataflow\"");
    loc.failAt("dataflow has a cycle: " + text, at);
}

void validate(const Schema& schema, const Locator& loc) {
    std::set<std::string> ids, names, files;
    for (const auto& g : schema.groups) {
        if (g.id == "other")
            loc.fail("group id \"other\" is reserved for unclassified files", "\"other\"");
        if (!ids.insert(g.id).second)
            loc.fail("duplicate group id " + jsonQuoted(g.id), jsonQuoted(g.id), 2);
        for (const auto& b : g.buffers) {
            if (!names.insert(b.name).second)
                loc.fail("duplicate buffer name " + jsonQuoted(b.name),
                         "\"name\": " + jsonQuoted(b.name), 2);
            if (!files.insert(b.file).second)
                loc.fail("duplicate buffer file " + jsonQuoted(b.file),
                         "\"file\": " + jsonQuoted(b.file), 2);
        }
    }
    for (const auto& [name, d] : schema.dims)
        if (!d.lengthOf.empty() && !names.count(d.lengthOf))
            loc.fail("dims: " + jsonQuoted(name) + " is the length of unknown buffer " +
                         jsonQuoted(d.lengthOf),
                     jsonQuoted(d.lengthOf));
    for (const auto& g : schema.groups)
        for (const auto& b : g.buffers) {
            int stars = 0;
            for (const auto& d : b.shape) {
                stars += d == "*";
                if (d != "*" && d.find_first_not_of("0123456789") != std::string::npos &&
                    !schema.dims.count(d))
                    loc.fail("buffer " + jsonQuoted(b.name) + ": shape names unknown dimension " +
                                 jsonQuoted(d),
                             jsonQuoted(d));
            }
            if (stars > 1)
                loc.fail("buffer " + jsonQuoted(b.name) + ": at most one \"*\" dimension",
                         "\"name\": " + jsonQuoted(b.name));
        }
    for (const auto& [from, to] : schema.dataflow)
        for (const auto& id : {from, to})
            if (!ids.count(id))
                loc.fail("dataflow names unknown group " + jsonQuoted(id), "\"dataflow\"");
    rejectCycles(schema, loc);
    if (const auto problem = detail::findInputsProblem(schema))
        loc.fail(problem->what, "\"name\": " + jsonQuoted(problem->buffer));
}

} // namespace

SchemaError::SchemaError(const std::string& source_, int line_, int column_,
                         const std::string& what)
    : std::runtime_error(formatError(source_, line_, column_, what)), source(source_), line(line_),
      column(column_) {}

namespace detail {

struct SchemaIndex::Maps {
    const GroupSpec* data = nullptr; // the group list indexed: another one means rebuild
    std::size_t size = 0;
    std::unordered_map<std::string_view, std::size_t> group;
    std::unordered_map<std::string_view, std::pair<std::size_t, std::size_t>> file;
};

SchemaIndex& SchemaIndex::operator=(const SchemaIndex&) {
    const std::lock_guard lock(m_mutex);
    m_maps.reset();
    return *this;
}

SchemaIndex::~SchemaIndex() = default;

std::shared_ptr<const SchemaIndex::Maps>
SchemaIndex::of(const std::vector<GroupSpec>& groups) const {
    const std::lock_guard lock(m_mutex);
    if (m_maps && m_maps->data == groups.data() && m_maps->size == groups.size()) return m_maps;
    auto maps = std::make_shared<Maps>();
    maps->data = groups.data();
    maps->size = groups.size();
    for (std::size_t g = 0; g < groups.size(); ++g) {
        maps->group.emplace(groups[g].id, g); // the first of a repeated id, as a scan finds
        for (std::size_t b = 0; b < groups[g].buffers.size(); ++b) {
            maps->file.emplace(groups[g].buffers[b].file, std::pair{g, b});
        }
    }
    m_maps = maps;
    return maps;
}

} // namespace detail

std::optional<std::pair<std::size_t, std::size_t>> Schema::findFile(const std::string& rest) const {
    const auto maps = lookup.of(groups);
    if (const auto it = maps->file.find(rest); it != maps->file.end()) {
        const auto [g, b] = it->second;
        if (g < groups.size() && b < groups[g].buffers.size() && groups[g].buffers[b].file == rest)
            return it->second;
    }
    // A miss scans: a buffer added to a group after the index was built leaves the list as it was.
    for (std::size_t g = 0; g < groups.size(); ++g)
        for (std::size_t b = 0; b < groups[g].buffers.size(); ++b)
            if (groups[g].buffers[b].file == rest) return std::pair{g, b};
    return std::nullopt;
}

const GroupSpec* Schema::group(const std::string& id) const {
    const auto maps = lookup.of(groups);
    const auto it = maps->group.find(id);
    if (it == maps->group.end()) return nullptr;
    const GroupSpec& g = groups[it->second];
    if (g.id == id) return &g;
    // Renamed in place since the index was built: the rare case pays a scan.
    for (const auto& other : groups)
        if (other.id == id) return &other;
    return nullptr;
}

// Not indexed: nothing looks buffers up by name once per buffer.
const BufferSpec* Schema::buffer(const std::string& name) const {
    for (const auto& g : groups)
        for (const auto& b : g.buffers)
            if (b.name == name) return &b;
    return nullptr;
}

std::vector<std::string> Schema::upstreamOf(const std::string& id) const {
    std::vector<std::string> up;
    for (const auto& [from, to] : dataflow)
        if (to == id) up.push_back(from);
    return up;
}

bool Schema::hasBufferInputs() const {
    return std::any_of(groups.begin(), groups.end(), [](const GroupSpec& g) {
        return std::any_of(g.buffers.begin(), g.buffers.end(),
                           [](const BufferSpec& b) { return b.inputs.has_value(); });
    });
}

Schema parseSchema(std::string_view text, const std::string& sourceName) {
    Locator loc(text, sourceName);
    if (text.find_first_not_of(" \t\r\n") == std::string_view::npos)
        loc.fail("the schema is empty");
    json doc;
    try {
        doc = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        auto [line, column] = lineColumn(text, e.byte > 0 ? e.byte - 1 : 0);
        std::string what = e.what();
        // Drop nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 2: ".
        if (auto p = what.find(": "); p != std::string::npos) what = what.substr(p + 2);
        throw SchemaError(sourceName, line, column, "invalid JSON: " + what);
    } catch (const json::out_of_range& e) {
        // A number beyond a double's range ("1e400", found by fuzz_schema) is reported without
        // a position; the message quotes the number, so point at its first occurrence.
        std::string what = e.what();
        if (auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
        const auto open = what.find('\''), close = what.rfind('\'');
        loc.fail("invalid JSON: " + what, open < close && close != std::string::npos
                                              ? what.substr(open + 1, close - open - 1)
                                              : "");
    }
    if (!doc.is_object()) loc.fail("the schema must be a JSON object");
    rejectUnknownKeys(doc, {"name", "version", "groups", "dataflow", "dims", "shards"}, "schema",
                      loc);

    Schema schema;
    schema.name = requireString(doc, "name", "schema", loc, false);
    auto groups = doc.find("groups");
    if (groups == doc.end() || !groups->is_array() || groups->empty())
        loc.fail("schema: \"groups\" must be a non-empty array", "\"groups\"");
    for (std::size_t gi = 0; gi < groups->size(); ++gi) {
        const auto& g = (*groups)[gi];
        const std::string where = "group " + std::to_string(gi + 1);
        if (!g.is_object()) loc.fail(where + ": a group must be an object", "\"groups\"");
        rejectUnknownKeys(g, {"id", "label", "buffers"}, where, loc);
        GroupSpec spec;
        spec.id = requireString(g, "id", where, loc);
        spec.label = requireString(g, "label", where, loc, false);
        if (spec.label.empty()) spec.label = spec.id;
        auto buffers = g.find("buffers");
        if (buffers == g.end() || !buffers->is_array())
            loc.fail(where + " (" + spec.id + "): \"buffers\" must be an array",
                     jsonQuoted(spec.id));
        for (std::size_t bi = 0; bi < buffers->size(); ++bi)
            spec.buffers.push_back(parseBuffer(
                (*buffers)[bi], "group " + spec.id + ", buffer " + std::to_string(bi + 1), loc));
        schema.groups.push_back(std::move(spec));
    }
    if (auto flow = doc.find("dataflow"); flow != doc.end()) {
        if (!flow->is_array())
            loc.fail("schema: \"dataflow\" must be an array of [from, to] pairs", "\"dataflow\"");
        for (const auto& edge : *flow) {
            if (!edge.is_array() || edge.size() != 2 || !edge[0].is_string() ||
                !edge[1].is_string())
                loc.fail("schema: each dataflow edge must be [\"FROM\", \"TO\"]", "\"dataflow\"");
            schema.dataflow.emplace_back(edge[0].get<std::string>(), edge[1].get<std::string>());
        }
    }
    if (auto dims = doc.find("dims"); dims != doc.end()) {
        if (!dims->is_object()) loc.fail("schema: \"dims\" must be an object", "\"dims\"");
        for (const auto& [name, d] : dims->items()) {
            DimSpec spec;
            if (d.is_number_unsigned() && d.get<std::uint64_t>() > 0)
                spec.value = d.get<std::uint64_t>();
            else if (d.is_object() && d.size() == 1 && d.contains("length_of") &&
                     d["length_of"].is_string())
                spec.lengthOf = d["length_of"].get<std::string>();
            else
                loc.fail("dims: " + jsonQuoted(name) +
                             " must be a positive number or {\"length_of\": BUFFER}",
                         jsonQuoted(name));
            schema.dims[name] = spec;
        }
    }
    if (auto shards = doc.find("shards"); shards != doc.end()) {
        if (!shards->is_array())
            loc.fail("schema: \"shards\" must be an array of \"NAME_REGEX:AXIS\" rules",
                     "\"shards\"");
        for (const auto& rule : *shards) {
            if (!rule.is_string())
                loc.fail("schema: each shard rule must be a string \"NAME_REGEX:AXIS\"",
                         "\"shards\"");
            std::string why;
            auto parsed = parseShardRule(rule.get<std::string>(), why);
            if (!parsed) loc.fail("shards: " + why, rule.dump());
            schema.shards.push_back(std::move(*parsed));
        }
    }
    validate(schema, loc);
    return schema;
}

Schema loadSchemaFile(const std::filesystem::path& path) {
    const std::string source = path.string();
    const auto refuse = [&](const std::string& what) { return SchemaError(source, 0, 0, what); };
    const auto tooLarge = [&](const std::string& size) {
        return refuse("the schema file is too large: " + size + " bytes, more than the " +
                      std::to_string(kMaxSchemaFileBytes >> 20) + " MiB a schema may have");
    };
    // Opened as a dump is: /dev/zero would be read until memory runs out, a FIFO would block
    // the open (and the read) until a writer comes, a directory would read as nothing.
    const detail::RegularFile file = detail::openRegularFile(path);
    if (file.notRegular())
        throw refuse(std::string("the schema file is ") +
                     detail::fileKindOf(file.status().st_mode) + ", not a regular file");
    if (!file.isOpen())
        throw refuse(std::string("cannot open the schema file: ") +
                     std::strerror(file.errorNumber()));
    const auto size = static_cast<std::uint64_t>(file.status().st_size);
    if (size > kMaxSchemaFileBytes) throw tooLarge(std::to_string(size));

    // Read to the end rather than to the size fstat() gave: a file that grows while it is read
    // (or a /proc file that says 0) is still bounded by the limit.
    std::string text;
    for (;;) {
        const std::size_t have = text.size();
        text.resize(have + (64 << 10));
        const ssize_t n = ::read(file.fd(), text.data() + have, text.size() - have);
        const int error = errno;
        text.resize(have + static_cast<std::size_t>(n > 0 ? n : 0));
        if (n < 0 && error == EINTR) continue;
        if (n < 0)
            throw refuse(std::string("cannot read the schema file: ") + std::strerror(error));
        if (n == 0) break;
        if (text.size() > kMaxSchemaFileBytes)
            throw tooLarge("at least " + std::to_string(text.size()));
    }
    return parseSchema(text, source);
}

const Schema& defaultSchema() {
    static const Schema schema = parseSchema(detail::kDefaultSchemaJson, "default_schema.json");
    return schema;
}

} // namespace dumpscope
