#pragma once

// Pairing the two runs' buffers when their names differ: a refactor renamed the modules, or the
// two set-ups dump under their own names. By default a buffer of run A pairs with the buffer of
// run B of the same name; a name map rewrites A's names into B's first, and `auto` pairs what is
// still unpaired by production order, element type and shape (docs/alignment.md).
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace dumpscope {

enum class AlignMode : std::uint8_t {
    names, // by name only (after the map, when one is given)
    automatic,
};
std::string_view alignModeName(AlignMode m); // "names", "auto"

// One line of a name map: run A's names that `pattern` finds (an ECMAScript regex, searched in
// the name) have the first match replaced by `replacement` (\1 … \9 its groups) to give run B's
// name. An exact rule (the window's) instead takes the whole name `pattern` to `replacement`.
struct NameRule {
    std::string pattern;
    std::string replacement;
    bool exact = false;
    std::string where; // "FILE:LINE:COL" of the rule, for messages; empty for the window's rules
};

// Rules in order: the first that applies to a name decides it; a name no rule applies to keeps
// its own. Exact rules are tried before the patterns.
struct NameMap {
    std::vector<NameRule> rules;
};

// A map file that cannot be used. The message reads "FILE:LINE:COL: what" (line and column
// 1-based), or "FILE: what" when the file itself is refused.
class NameMapError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

// A map from its text: JSON when it starts with '{' ({"rules": [["A pattern", "B name"], …]}
// or {"A pattern": "B name", …}), else lines of two whitespace-separated columns with blank
// lines and '#' comments. Every pattern is compiled here, so a bad one is refused before any
// run is read. Throws NameMapError.
NameMap parseNameMap(std::string_view text, const std::string& source);
NameMap loadNameMapFile(const std::filesystem::path& path);

// How a pair of differently named buffers came about.
enum class PairedBy : std::uint8_t {
    map,           // a rule of the name map
    wrapped_match, // auto: one name is the other's under wrapping modules, type and shape
    exact_match,   // auto: the same place in production order, element type and shape
    shape_match,   // auto: the next in production order with the same shape (the type differs)
};
std::string_view pairedByName(PairedBy p); // "map", "auto: order, type and shape", …

// A pairing of a name of run A with one of run B, over the steps and ranks where it was made.
struct NamePair {
    std::string nameA, nameB;
    PairedBy by = PairedBy::map;
    std::size_t places = 0; // (step, rank) places where the two were paired
    std::string rule;       // the map rule's "FILE:LINE:COL", for PairedBy::map
};

// What the alignment did, for every front end to say: the pairs it made between different
// names, and the names of each run it left without a partner (one-sided buffers).
struct NameAlignment {
    AlignMode mode = AlignMode::names;
    bool mapped = false;                           // a name map was given
    std::vector<NamePair> pairs;                   // by run A's name, then B's
    std::vector<std::string> unpairedA, unpairedB; // sorted, each name once
    // The name a paired buffer is reported under: "A name → B name" (several B names, when it
    // paired with another at another step, joined by " | "); any other name unchanged.
    std::string shownName(const std::string& nameA) const;
};

// The separator of the two names in a paired buffer's reported name.
inline constexpr std::string_view kPairArrow = " → ";

// The exact rule that pairs `nameA` with `nameB`, placed before `map`'s rules, replacing one
// for the same name: how the window fixes one pairing.
NameMap withPairing(const NameMap& map, const std::string& nameA, const std::string& nameB);

} // namespace dumpscope
