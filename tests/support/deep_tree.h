#pragma once
// A directory chain whose full path is longer than PATH_MAX, made and removed with *at() calls
// on descriptors (open() and stat() of the whole path fail with ENAMETOOLONG), for tests of a
// run that lies that deep. Independent of the code under test's own openers.
#include <filesystem>
#include <initializer_list>
#include <string>
#include <vector>

namespace dumpscope::test {

class DeepTree {
  public:
    // Under `base`, directories of `componentLength` characters until the path passes
    // `minLength` characters; then `leaves` (e.g. "a", "b") inside the deepest one.
    DeepTree(const std::filesystem::path& base, std::size_t minLength,
             const std::vector<std::string>& leaves, std::size_t componentLength = 200);
    ~DeepTree(); // removes the chain, with everything in it
    DeepTree(const DeepTree&) = delete;
    DeepTree& operator=(const DeepTree&) = delete;

    // The deepest directory, as an absolute path, and relative to `base`.
    const std::filesystem::path& path() const { return m_path; }
    const std::filesystem::path& relative() const { return m_relative; }
    // Writes `bytes` to LEAF/NAME inside the deepest directory.
    void write(const std::string& leaf, const std::string& name, const std::string& bytes) const;
    // The same, with float32 values (little-endian, as a dump holds them).
    void writeF32(const std::string& leaf, const std::string& name,
                  std::initializer_list<float> values) const;

  private:
    std::filesystem::path m_base, m_path, m_relative;
    std::vector<std::string> m_components;
};

} // namespace dumpscope::test
