// The result cache behind incremental reload and --watch: an unchanged pair is not read again,
// a change of size, modification time, change time or comparison options is, and it holds on
// two threads.
#include "dumpscope/result_cache.h"

#include "run_fixture.h"
#include "test_hooks.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>

#include <cstring>
#include <thread>

using dumpscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

fs::path dumpPath(const TempDir& dir, const char* run, std::uint64_t step,
                  const std::string& file) {
    return dir / run / ("step_" + std::to_string(step) + "_" + file + ".bin");
}

// Sets a file's modification time, to the nanosecond.
void setMtime(const fs::path& file, std::int64_t ns) {
    timespec times[2];
    times[0].tv_sec = 0;
    times[0].tv_nsec = UTIME_OMIT;
    times[1].tv_sec = static_cast<time_t>(ns / 1000000000);
    times[1].tv_nsec = static_cast<long>(ns % 1000000000);
    ASSERT_EQ(::utimensat(AT_FDCWD, file.c_str(), times, 0), 0);
}

// Flips a bit of run B's file in place and puts its modification time back (as touch -d,
// rsync -t or cp -p would): same inode, size and modification time, other bytes. Only the
// change time, which nobody can set, tells.
void perturbKeepingSizeAndMtime(const TempDir& dir, std::uint64_t step, const std::string& file) {
    const auto path = dumpPath(dir, "b", step, file);
    const auto before = dumpscope::fileIdentity(path);
    ASSERT_TRUE(before);
    dumpscope::test::perturb(dir, step, file);
    setMtime(path, before->mtimeNs);
    const auto after = dumpscope::fileIdentity(path);
    ASSERT_TRUE(after);
    ASSERT_EQ(after->inode, before->inode);
    ASSERT_EQ(after->size, before->size);
    ASSERT_EQ(after->mtimeNs, before->mtimeNs);
}

const dumpscope::BufferResult& find(const dumpscope::Analysis& an, std::uint64_t step,
                                    const std::string& name) {
    for (const auto& b : an.buffers)
        if (b.step == step && b.name == name) return b;
    throw std::runtime_error("no buffer " + name);
}

struct Cached {
    std::shared_ptr<dumpscope::ResultCache> cache = std::make_shared<dumpscope::ResultCache>();
    dumpscope::Analysis run(const TempDir& dir, dumpscope::AnalyzeOptions options = {}) {
        options.cache = cache;
        return dumpscope::analyze(dir / "a", dir / "b", options);
    }
};

// After step 1's q_logits pair changed: the second run reads that pair only, and finds it.
void expectOnlyTheChangedPairRead(Cached& c, const TempDir& dir, std::uint64_t pairs) {
    const auto again = c.run(dir);
    const auto s = c.cache->stats();
    EXPECT_EQ(s.misses, pairs + 1);
    EXPECT_EQ(s.hits, pairs - 1);
    EXPECT_EQ(s.filesRead, 2 * pairs + 2);
    EXPECT_EQ(find(again, 1, "q_logits").status, dumpscope::Status::diverge);
    EXPECT_EQ(again.verdict.exitCode, 1);
}

} // namespace

TEST(ResultCache, UnchangedFilesAreNotReadAgain) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0, 1});
    Cached c;
    const auto first = c.run(dir);
    const std::uint64_t pairs = first.buffers.size();
    ASSERT_EQ(pairs, 62u);
    auto s = c.cache->stats();
    EXPECT_EQ(s.misses, pairs);
    EXPECT_EQ(s.filesRead, 2 * pairs);
    EXPECT_EQ(s.hits, 0u);
    EXPECT_EQ(s.entries, pairs);

    // Nothing changed: every pair is answered from the cache, no file is opened.
    const auto second = c.run(dir);
    s = c.cache->stats();
    EXPECT_EQ(s.hits, pairs);
    EXPECT_EQ(s.misses, pairs);
    EXPECT_EQ(s.filesRead, 2 * pairs);
    EXPECT_EQ(second.verdict.exitCode, 0);
}

// A pair's first comparison keeps its result under the files as the comparison opened them: no
// path is stat()ed before or after. A lookup stats the pair's two paths, and nothing more.
TEST(ResultCache, AFirstComparisonStatsNoPathAndALookupStatsTwo) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0, 1});
    Cached c;
    const std::uint64_t before = dumpscope::detail::identityStats();
    const std::uint64_t pairs = c.run(dir).buffers.size();
    EXPECT_EQ(dumpscope::detail::identityStats() - before, 0u);
    EXPECT_EQ(c.cache->stats().entries, pairs);
    c.run(dir);
    EXPECT_EQ(dumpscope::detail::identityStats() - before, 2 * pairs);
    EXPECT_EQ(c.cache->stats().hits, pairs);

    // The entry is the file that was read: one renamed over the path since (a new inode, its
    // size and modification time the same) is read again.
    const fs::path b = dumpPath(dir, "b", 1, "h_q_logits");
    const auto old = dumpscope::fileIdentity(b);
    ASSERT_TRUE(old);
    fs::copy_file(b, dir / "replacement");
    dumpscope::test::perturb(dir, 1, "h_q_logits"); // the old inode's bytes change, not its path's
    fs::rename(dir / "replacement", b);
    setMtime(b, old->mtimeNs);
    EXPECT_NE(dumpscope::fileIdentity(b)->inode, old->inode);
    const auto third = c.run(dir);
    EXPECT_EQ(c.cache->stats().misses, pairs + 1);
    EXPECT_EQ(find(third, 1, "q_logits").status, dumpscope::Status::equal);
}

// New bytes under the old size and modification time: the change time moved, so the pair is
// read again and its divergence found (the cache used to trust size and mtime alone).
TEST(ResultCache, NewBytesUnderTheOldModificationTimeAreReadAgain) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0, 1});
    Cached c;
    const std::uint64_t pairs = c.run(dir).buffers.size();
    perturbKeepingSizeAndMtime(dir, 1, "h_q_logits");
    expectOnlyTheChangedPairRead(c, dir, pairs);
}

TEST(ResultCache, ChangedModificationTimeIsReadAgain) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0, 1});
    Cached c;
    const std::uint64_t pairs = c.run(dir).buffers.size();
    perturbKeepingSizeAndMtime(dir, 1, "h_q_logits");
    const auto path = dumpPath(dir, "b", 1, "h_q_logits");
    setMtime(path, dumpscope::fileIdentity(path)->mtimeNs + 1); // one nanosecond is enough
    expectOnlyTheChangedPairRead(c, dir, pairs);
    EXPECT_EQ(c.cache->stats().entries, pairs); // the entry was replaced, not added
}

TEST(ResultCache, ChangedSizeIsReadAgain) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0});
    // An unclassified file has no shape, so only its size can tell.
    for (const char* run : {"a", "b"})
        dumpscope::test::writeDump(dir / run, 0, "extra", std::vector<std::uint8_t>(8, 7));
    Cached c;
    const std::uint64_t pairs = c.run(dir).buffers.size();
    const auto path = dumpPath(dir, "a", 0, "extra");
    const auto before = dumpscope::fileIdentity(path);
    dumpscope::test::writeArray(path, std::vector<std::uint8_t>(9, 7)); // same inode, one byte more
    setMtime(path, before->mtimeNs);
    ASSERT_EQ(dumpscope::fileIdentity(path)->inode, before->inode);
    const auto again = c.run(dir);
    const auto s = c.cache->stats();
    EXPECT_EQ(s.misses, pairs + 1);
    EXPECT_EQ(find(again, 0, "extra").status, dumpscope::Status::length_mismatch);
}

TEST(ResultCache, NewFilesAreTheOnlyOnesRead) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0, 1});
    Cached c;
    const std::uint64_t pairs = c.run(dir).buffers.size();
    dumpscope::test::writeRunPair(dir, {2}); // a new step lands in both runs
    const auto again = c.run(dir);
    const auto s = c.cache->stats();
    EXPECT_EQ(again.steps.size(), 3u);
    EXPECT_EQ(s.hits, pairs);
    EXPECT_EQ(s.filesRead, 2 * pairs + 2 * (again.buffers.size() - pairs));
}

TEST(ResultCache, OneSidedBuffersAreCachedAndReadAgainWhenTheOtherSideAppears) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0});
    fs::remove(dumpPath(dir, "b", 0, "h_q_logits"));
    Cached c;
    EXPECT_EQ(find(c.run(dir), 0, "q_logits").status, dumpscope::Status::only_in_a);
    const auto before = c.cache->stats();
    EXPECT_EQ(find(c.run(dir), 0, "q_logits").status, dumpscope::Status::only_in_a);
    EXPECT_EQ(c.cache->stats().filesRead, before.filesRead);
    fs::copy_file(dumpPath(dir, "a", 0, "h_q_logits"), dumpPath(dir, "b", 0, "h_q_logits"));
    EXPECT_EQ(find(c.run(dir), 0, "q_logits").status, dumpscope::Status::equal);
    EXPECT_EQ(c.cache->stats().filesRead, before.filesRead + 2);
}

TEST(ResultCache, OtherComparisonOptionsAreNotServedFromTheCache) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0});
    // Element 3 of B's q_logits 0.1% off: numeric by default, rounding under a 1e-2 threshold.
    const std::string bytes = dumpscope::test::readFile(dumpPath(dir, "a", 0, "h_q_logits"));
    std::vector<float> values(bytes.size() / sizeof(float));
    std::memcpy(values.data(), bytes.data(), bytes.size());
    values[3] *= 1.001f;
    dumpscope::test::writeArray(dumpPath(dir, "b", 0, "h_q_logits"), values);
    Cached c;
    const auto plain = find(c.run(dir), 0, "q_logits");
    EXPECT_EQ(plain.status, dumpscope::Status::diverge);
    EXPECT_EQ(plain.kind, dumpscope::Kind::numeric);
    dumpscope::AnalyzeOptions tolerant;
    tolerant.tolerance.atol = 1.0;
    EXPECT_EQ(find(c.run(dir, tolerant), 0, "q_logits").status,
              dumpscope::Status::within_tolerance);
    dumpscope::AnalyzeOptions shaped;
    shaped.shapes["q_logits"] = {"2", "4"};
    EXPECT_EQ(find(c.run(dir, shaped), 0, "q_logits").stats.rowDiffs,
              (std::vector<std::uint32_t>{1, 0}));
    EXPECT_EQ(find(c.run(dir, shaped), 0, "q_logits").stats.rowDiffs,
              (std::vector<std::uint32_t>{1, 0}));
    dumpscope::AnalyzeOptions loose;
    loose.roundingThreshold = 1e-2;
    EXPECT_EQ(find(c.run(dir, loose), 0, "q_logits").kind, dumpscope::Kind::rounding);
    // One entry per pair, for the options it was last compared with: each of the four option
    // sets read all 31 pairs once; the second shaped analysis was answered from the cache.
    const auto s = c.cache->stats();
    EXPECT_EQ(s.filesRead, 2u * 31 * 4);
    EXPECT_EQ(s.hits, 31u);
}

TEST(ResultCache, ErrorsAreNotKept) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0});
    dumpscope::test::writeBytes(dumpPath(dir, "b", 0, "h_q_logits"), "abc", 3); // not whole floats
    Cached c;
    c.run(dir);
    const auto before = c.cache->stats();
    EXPECT_EQ(find(c.run(dir), 0, "q_logits").status, dumpscope::Status::error);
    const auto after = c.cache->stats();
    EXPECT_EQ(after.misses, before.misses + 1);
    EXPECT_EQ(after.entries, 30u);
}

// analyze() already calls the cache from its own threads; two analyses at once on one cache
// add their concurrency on top. Every result must match an uncached analysis.
TEST(ResultCache, TwoThreadsShareOneCache) {
    TempDir dir;
    dumpscope::test::writeRunPair(dir, {0, 1, 2, 3});
    dumpscope::test::perturb(dir, 2, "j_grad_h_t_q", 1);
    const auto expected = dumpscope::analyze(dir / "a", dir / "b");
    Cached c;
    auto worker = [&](std::vector<dumpscope::Analysis>* out) {
        dumpscope::AnalyzeOptions options;
        options.threads = 2;
        for (int i = 0; i < 20; ++i)
            out->push_back(c.run(dir, options));
    };
    std::vector<dumpscope::Analysis> one, two;
    std::thread t1(worker, &one), t2(worker, &two);
    t1.join();
    t2.join();
    for (const auto* results : {&one, &two})
        for (const auto& an : *results) {
            ASSERT_EQ(an.buffers.size(), expected.buffers.size());
            for (std::size_t i = 0; i < an.buffers.size(); ++i) {
                EXPECT_EQ(an.buffers[i].status, expected.buffers[i].status);
                EXPECT_EQ(an.buffers[i].stats.hashA, expected.buffers[i].stats.hashA);
                EXPECT_EQ(an.buffers[i].stats.nDiff, expected.buffers[i].stats.nDiff);
            }
            EXPECT_EQ(an.verdict.rootCause.buffers, expected.verdict.rootCause.buffers);
        }
    const auto s = c.cache->stats();
    const std::uint64_t pairs = expected.buffers.size();
    EXPECT_EQ(s.hits + s.misses, 40 * pairs);
    EXPECT_GE(s.misses, pairs);     // each pair read at least once...
    EXPECT_LE(s.misses, 2 * pairs); // ...and at most once per thread (both may miss at once)
    EXPECT_EQ(s.entries, pairs);
}
