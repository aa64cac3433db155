#include "analysis/shards.h"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <set>

namespace dumpscope {

namespace {

std::string ranksText(const std::vector<ShardPiece>& pieces) {
    if (pieces.empty()) return "no rank";
    std::string text = pieces.size() == 1 ? "rank " : "ranks ";
    for (std::size_t i = 0; i < pieces.size(); ++i)
        text += (i ? ", " : "") + std::to_string(pieces[i].rank);
    return text;
}

std::uint64_t product(const std::vector<std::uint64_t>& dims, std::size_t from, std::size_t to) {
    std::uint64_t p = 1;
    for (std::size_t i = from; i < to; ++i)
        p *= dims[i];
    return p;
}

} // namespace

std::optional<ShardRule> parseShardRule(const std::string& text, std::string& error) {
    const auto colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0) {
        error = "\"" + text + "\" is not NAME_REGEX:AXIS";
        return std::nullopt;
    }
    const std::string axisText = text.substr(colon + 1);
    ShardRule rule;
    rule.text = text;
    const auto [end, ec] =
        std::from_chars(axisText.data(), axisText.data() + axisText.size(), rule.axis);
    if (axisText.empty() || ec != std::errc() || end != axisText.data() + axisText.size() ||
        rule.axis > 64) {
        error = "\"" + text + "\": the axis \"" + axisText + "\" is not a dimension index 0 to 64";
        return std::nullopt;
    }
    try {
        rule.pattern = std::regex(text.substr(0, colon), std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
        error = "\"" + text + "\": the name pattern is not a regular expression (" + e.what() + ")";
        return std::nullopt;
    }
    return rule;
}

std::vector<std::uint64_t> ShardedPair::wholeShape(const std::vector<ShardPiece>& side) const {
    if (side.empty()) return {};
    std::vector<std::uint64_t> shape = side.front().shape;
    shape[axis] = 0;
    for (const auto& piece : side)
        shape[axis] += piece.shape[axis];
    return shape;
}

std::size_t ShardedPair::pieceAt(const std::vector<ShardPiece>& side, std::uint64_t index) const {
    const std::vector<std::uint64_t> shape = wholeShape(side);
    const std::uint64_t inner = product(shape, axis + 1, shape.size());
    const std::uint64_t along = (index / inner) % shape[axis];
    std::uint64_t start = 0;
    for (std::size_t p = 0; p < side.size(); ++p) {
        start += side[p].shape[axis];
        if (along < start) return p;
    }
    return side.size() - 1;
}

std::string shardText(const ShardedPair& s, std::optional<std::uint64_t> firstDiff) {
    std::string text = ranksText(s.a) + " in A, " + ranksText(s.b) + " in B, joined along axis " +
                       std::to_string(s.axis);
    if (firstDiff && s.firstDiffRankA && s.firstDiffRankB)
        text += "; the first difference, index " + std::to_string(*firstDiff) +
                " of the whole tensor, is on rank " + std::to_string(*s.firstDiffRankA) +
                " in A, rank " + std::to_string(*s.firstDiffRankB) + " in B";
    return text;
}

namespace detail {

namespace {

// Why a run's pieces of `name` are not one tensor split along `axis`; empty when they are.
std::string piecesProblem(const RunScan& scan, const std::vector<const DumpFile*>& files,
                          const std::string& name, std::size_t axis) {
    const DumpFile& first = *files.front();
    for (const DumpFile* f : files) {
        const std::string where = scan.pathOf(*f).string() + ": tensor \"" + name + "\" on rank " +
                                  std::to_string(f->rank);
        if (!f->error.empty()) return f->error;
        if (!f->described || !f->dtype || !f->location || f->fingerprintOnly)
            return where + " has no element type and shape of its own file; its shards cannot be "
                           "joined";
        if (f->shape.size() <= axis)
            return where + " has " + std::to_string(f->shape.size()) + " dimension(s): no axis " +
                   std::to_string(axis) + " to join its shards along";
        if (*f->dtype != *first.dtype)
            return where + " is " + f->typeName + " but " + first.typeName + " on rank " +
                   std::to_string(first.rank) + "; its shards are not one tensor";
        for (std::size_t d = 0; d < f->shape.size(); ++d)
            if (f->shape.size() != first.shape.size() ||
                (d != axis && f->shape[d] != first.shape[d]))
                return where + " does not have the shape of its shard on rank " +
                       std::to_string(first.rank) + " off axis " + std::to_string(axis) +
                       "; its shards are not one tensor";
    }
    return {};
}

std::vector<const DumpFile*> filesOf(const RunScan& scan, std::uint64_t step,
                                     const std::string& name) {
    std::vector<const DumpFile*> files;
    for (auto it = scan.files.lower_bound({step, name, 0});
         it != scan.files.end() && it->first.step == step && it->first.name == name; ++it)
        files.push_back(&it->second);
    return files;
}

// Replaces a run's files of one buffer by one file at `rank`: the whole tensor, or the error.
void replace(RunScan& scan, std::uint64_t step, const std::string& name, std::uint64_t rank,
             const std::vector<const DumpFile*>& files, std::vector<ShardPiece>& pieces,
             std::size_t axis) {
    if (files.empty()) return;
    DumpFile merged = *files.front();
    merged.rank = rank;
    merged.error = piecesProblem(scan, files, name, axis);
    if (merged.error.empty()) {
        std::vector<std::uint64_t> shape = files.front()->shape;
        shape[axis] = 0;
        merged.size = 0;
        for (const DumpFile* f : files) {
            pieces.push_back({f->rank, f->fileName, f->location, f->shape});
            shape[axis] += f->shape[axis];
            merged.size += f->size;
        }
        merged.shape = shape;
        auto location = std::make_shared<TensorLocation>(*files.front()->location);
        location->count = product(shape, 0, shape.size());
        merged.location = std::move(location);
    }
    for (auto it = scan.files.lower_bound({step, name, 0});
         it != scan.files.end() && it->first.step == step && it->first.name == name;)
        it = scan.files.erase(it);
    scan.files.emplace(DumpKey{step, name, rank}, std::move(merged));
}

} // namespace

ShardedPairs joinShards(RunScan& a, RunScan& b, const std::vector<ShardRule>& rules) {
    ShardedPairs pairs;
    if (rules.empty()) return pairs;
    std::set<std::pair<std::uint64_t, std::string>> names;
    for (const RunScan* scan : {&a, &b})
        for (const auto& [key, file] : scan->files)
            names.emplace(key.step, key.name);
    for (const auto& key : names) {
        // Named, not a structured binding: the lambda below captures them (clang 14).
        const std::uint64_t step = key.first;
        const std::string& name = key.second;
        const auto rule = std::find_if(rules.begin(), rules.end(), [&](const ShardRule& r) {
            return std::regex_match(name, r.pattern);
        });
        if (rule == rules.end()) continue;
        const auto filesA = filesOf(a, step, name), filesB = filesOf(b, step, name);
        // Held whole on one rank by each run, the same rank: there is nothing to join.
        if (filesA.size() <= 1 && filesB.size() <= 1 &&
            (filesA.empty() || filesB.empty() || filesA[0]->rank == filesB[0]->rank))
            continue;
        auto pair = std::make_shared<ShardedPair>();
        pair->rule = rule->text;
        pair->axis = rule->axis;
        std::uint64_t rank = UINT64_MAX;
        for (const auto* files : {&filesA, &filesB})
            if (!files->empty()) rank = std::min(rank, files->front()->rank);
        replace(a, step, name, rank, filesA, pair->a, rule->axis);
        replace(b, step, name, rank, filesB, pair->b, rule->axis);
        pairs.emplace(std::pair{step, name}, std::move(pair));
    }
    return pairs;
}

} // namespace detail

} // namespace dumpscope
