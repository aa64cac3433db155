#pragma once
// A user's layout pattern ("rank{rank}/iter_{step}/{group}/{name}.pt"): path segments holding
// literal text and the placeholders {rank}, {step}, {group}, {file} and {name}, matched one
// directory level per segment.
#include <cstdint>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace dumpscope::detail {

// What one matched path says of its buffer.
struct LayoutFields {
    std::optional<std::uint64_t> step, rank;
    std::string group, file, name;
};

class LayoutPattern {
  public:
    // Empty when `pattern` is usable, else why not.
    std::string parse(const std::string& pattern);
    std::size_t depth() const { return m_segments.size(); }
    bool hasRank() const { return m_hasRank; }
    // Whether the last segment spells the file's extension: otherwise it is matched against the
    // file's name without its extension.
    bool lastHasExtension() const { return m_lastHasExtension; }
    // Matches `entry` against segment `level`, adding what it captures to `fields`; false when
    // it does not match or a number does not fit 64 bits.
    bool match(std::size_t level, const std::string& entry, LayoutFields& fields) const;

  private:
    enum class Field { step, rank, group, file, name };
    struct Segment {
        std::regex regex;
        std::vector<Field> fields;
    };
    std::vector<Segment> m_segments;
    bool m_hasRank = false;
    bool m_lastHasExtension = false;
};

} // namespace dumpscope::detail
