// Fuzzes the JSON schema loader (--schema FILE): any bytes either give a Schema that holds what
// validate() promises (an acyclic dataflow among them) or throw SchemaError naming the source;
// nothing else may escape, and no input may crash, hang or read out of bounds. A parsed schema is
// then used the way an analysis uses it: file lookups, upstream groups, and shape resolution
// against made-up element counts.
#include "dumpscope/schema.h"
#include "dumpscope/shape.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

using namespace dumpscope;

namespace {

void check(bool ok) {
    if (!ok) std::abort(); // an invariant broke: libFuzzer reports it as a crash
}

// validate() promised an acyclic dataflow between known groups: taking away, again and again,
// the groups that have no upstream left must take them all.
void checkAcyclic(const Schema& schema) {
    std::map<std::string, std::size_t> upstream;
    for (const auto& g : schema.groups)
        upstream[g.id] = 0;
    for (const auto& [from, to] : schema.dataflow) {
        check(upstream.count(from) && upstream.count(to));
        ++upstream[to];
    }
    std::vector<std::string> ready;
    for (const auto& [id, n] : upstream)
        if (n == 0) ready.push_back(id);
    std::size_t taken = 0;
    while (!ready.empty()) {
        const std::string id = ready.back();
        ready.pop_back();
        ++taken;
        for (const auto& [from, to] : schema.dataflow)
            if (from == id && --upstream[to] == 0) ready.push_back(to);
    }
    check(taken == schema.groups.size());
}

void exercise(const Schema& schema, std::size_t inputSize) {
    checkAcyclic(schema);
    for (const auto& g : schema.groups) {
        check(!g.id.empty() && !g.label.empty());
        check(schema.group(g.id) == &g);
        for (const auto& up : schema.upstreamOf(g.id))
            check(schema.group(up) != nullptr);
        for (const auto& b : g.buffers) {
            check(!b.name.empty() && !b.file.empty());
            check(schema.buffer(b.name) == &b);
            const auto where = schema.findFile(b.file);
            check(where && &schema.groups[where->first].buffers[where->second] == &b);
            // validate() promised every declared input names another buffer or a group other
            // than the buffer's own, each once, and no name that is both.
            if (b.inputs) {
                for (const auto& entry : *b.inputs) {
                    check(entry != b.name && entry != g.id);
                    check((schema.buffer(entry) != nullptr) != (schema.group(entry) != nullptr));
                    check(std::count(b.inputs->begin(), b.inputs->end(), entry) == 1);
                }
            }
            // Counts that fit, that do not, zero, and the extremes of 64 bits.
            const std::uint64_t counts[] = {0, 1, 6, 64, inputSize, UINT64_MAX};
            for (std::uint64_t n : counts) {
                const auto lengthOf =
                    [&](const std::string& other) -> std::optional<std::uint64_t> {
                    check(schema.buffer(other) != nullptr); // validate() promised it exists
                    return n == 0 ? std::nullopt : std::optional<std::uint64_t>(n / 2 + 1);
                };
                const ResolvedShape r = resolveShape(b.shape, schema, lengthOf, n);
                if (!r.error.empty()) {
                    check(r.dims.empty());
                    continue;
                }
                if (b.shape.empty()) {
                    check(r.dims.empty());
                    continue;
                }
                check(r.dims.size() == b.shape.size());
                std::uint64_t product = 1;
                for (auto d : r.dims) {
                    check(d > 0 && product <= UINT64_MAX / d);
                    product *= d;
                }
                check(product == n);
                (void)formatIndex(n - 1, r.dims);
            }
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        exercise(parseSchema(text, "fuzz.json"), size);
    } catch (const SchemaError& e) {
        check(std::string_view(e.what()).starts_with("fuzz.json:") && e.source == "fuzz.json");
        check(e.line >= 1 && e.column >= 1);
    }
    return 0;
}
