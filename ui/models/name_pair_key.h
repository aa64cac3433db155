#pragma once

#include <cstddef>
#include <functional>
#include <string_view>
#include <utility>

// A buffer's (group, name) viewed where the analysis holds it, and its hash: the one key of the
// window's indexes of buffers by both names, built without copying either.
using NamePair = std::pair<std::string_view, std::string_view>;

inline std::size_t namePairHash(std::string_view group, std::string_view name) {
    const std::size_t g = std::hash<std::string_view>{}(group);
    return (g * 0x9e3779b97f4a7c15ULL) ^ std::hash<std::string_view>{}(name);
}

struct NamePairHash {
    std::size_t operator()(const NamePair& p) const { return namePairHash(p.first, p.second); }
};
