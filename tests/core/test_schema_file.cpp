// loadSchemaFile on real files in a temporary directory: only a regular file (symlinks followed)
// of at most kMaxSchemaFileBytes is read; anything else is refused, unread, with what it is and
// no line or column, since the refusal is about the file and not a place in its text.
#include "dumpscope/schema.h"

#include "test_support.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <future>
#include <string>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace dumpscope;
namespace fs = std::filesystem;

namespace {

const std::string kValid = R"js({"groups": [{"id": "A", "buffers": [
    {"name": "x", "file": "a_x", "dtype": "f32"}]}]})js";

// What loadSchemaFile throws for `path`, or an empty message when it loads. A FIFO that a
// broken loader waits on is opened for writing after 10 s, so that the test fails instead of
// hanging.
std::string refusal(const fs::path& path) {
    auto loading = std::async(std::launch::async, [path]() -> std::string {
        try {
            loadSchemaFile(path);
        } catch (const SchemaError& e) {
            EXPECT_EQ(e.source, path.string());
            EXPECT_EQ(e.line, 0) << e.what();
            EXPECT_EQ(e.column, 0) << e.what();
            return e.what();
        }
        return {};
    });
    if (loading.wait_for(std::chrono::seconds(10)) == std::future_status::timeout) {
        ADD_FAILURE() << path << ": loadSchemaFile still waiting after 10 s";
        const int writer = ::open(path.c_str(), O_WRONLY | O_NONBLOCK);
        if (writer >= 0) ::close(writer);
    }
    return loading.get();
}

} // namespace

TEST(SchemaFile, ARegularFileAndASymlinkToItLoad) {
    test::TempDir dir;
    test::writeText(dir / "s.json", kValid);
    fs::create_symlink(dir / "s.json", dir / "link.json");
    EXPECT_EQ(loadSchemaFile(dir / "s.json").groups.size(), 1u);
    EXPECT_EQ(loadSchemaFile(dir / "link.json").groups.at(0).buffers.at(0).name, "x");
}

TEST(SchemaFile, AMissingFileSaysNoSuchFileWithoutAPosition) {
    test::TempDir dir;
    const auto missing = dir / "missing.json";
    EXPECT_EQ(refusal(missing),
              missing.string() + ": cannot open the schema file: No such file or directory");
    fs::create_symlink(dir / "missing.json", dir / "dangling.json");
    EXPECT_EQ(refusal(dir / "dangling.json"), (dir / "dangling.json").string() +
                                                  ": cannot open the schema file: No such file or "
                                                  "directory");
}

TEST(SchemaFile, ADirectoryIsADirectoryNotAnEmptySchema) {
    test::TempDir dir;
    fs::create_directory(dir / "schemas");
    EXPECT_EQ(refusal(dir / "schemas"),
              (dir / "schemas").string() + ": the schema file is a directory, not a regular file");
}

TEST(SchemaFile, AFifoIsRefusedWithoutWaitingForAWriter) {
    test::TempDir dir;
    ASSERT_EQ(::mkfifo((dir / "fifo.json").c_str(), 0600), 0);
    fs::create_symlink(dir / "fifo.json", dir / "link-to-fifo.json");
    for (const char* name : {"fifo.json", "link-to-fifo.json"}) {
        SCOPED_TRACE(name);
        EXPECT_EQ(refusal(dir / name),
                  (dir / name).string() + ": the schema file is a FIFO, not a regular file");
    }
}

TEST(SchemaFile, ADeviceIsRefusedUnread) {
    // /dev/zero never ends: read whole, it exhausted memory (std::bad_alloc).
    ASSERT_TRUE(fs::exists("/dev/zero"));
    EXPECT_EQ(refusal("/dev/zero"),
              "/dev/zero: the schema file is a character device, not a regular file");
    test::TempDir dir;
    fs::create_symlink("/dev/zero", dir / "zero.json");
    EXPECT_EQ(refusal(dir / "zero.json"),
              (dir / "zero.json").string() +
                  ": the schema file is a character device, not a regular file");
}

TEST(SchemaFile, ASocketIsRefused) {
    test::TempDir dir;
    const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_GE(sock, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    const auto sockPath = (dir / "s.json").string();
    ASSERT_LT(sockPath.size(), sizeof addr.sun_path);
    std::strcpy(addr.sun_path, sockPath.c_str());
    ASSERT_EQ(::bind(sock, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    const std::string message = refusal(dir / "s.json");
    ::close(sock);
    // open() of a socket fails (ENXIO, "No such device or address"): it is named all the same.
    EXPECT_EQ(message, sockPath + ": the schema file is a socket, not a regular file");
}

TEST(SchemaFile, AFileOverTheLimitIsRefusedWithTheLimitAndOneAtItLoads) {
    test::TempDir dir;
    ASSERT_EQ(kMaxSchemaFileBytes, 32u << 20);
    std::string atLimit = kValid;
    atLimit.resize(kMaxSchemaFileBytes, ' ');
    test::writeText(dir / "at.json", atLimit);
    EXPECT_EQ(loadSchemaFile(dir / "at.json").groups.size(), 1u);

    test::writeText(dir / "over.json", atLimit + " ");
    EXPECT_EQ(refusal(dir / "over.json"),
              (dir / "over.json").string() +
                  ": the schema file is too large: 33554433 bytes, more than the 32 MiB a schema "
                  "may have");
}

TEST(SchemaFile, AnUnreadableFileSaysWhy) {
    if (test::runningAsRoot()) GTEST_SKIP() << "root reads a file without read permission";
    test::TempDir dir;
    test::writeText(dir / "s.json", kValid);
    fs::permissions(dir / "s.json", fs::perms::none);
    EXPECT_EQ(refusal(dir / "s.json"),
              (dir / "s.json").string() + ": cannot open the schema file: Permission denied");
}

TEST(SchemaFile, TheTextOfARegularFileIsStillLocatedByLineAndColumn) {
    test::TempDir dir;
    test::writeText(dir / "s.json", "{\n  \"groups\": [,]\n}");
    try {
        loadSchemaFile(dir / "s.json");
        FAIL() << "accepted";
    } catch (const SchemaError& e) {
        EXPECT_EQ(e.line, 2);
        EXPECT_EQ(std::string(e.what()).rfind((dir / "s.json").string() + ":2:", 0), 0u)
            << e.what();
    }
    test::writeText(dir / "empty.json", "");
    try {
        loadSchemaFile(dir / "empty.json");
        FAIL() << "accepted";
    } catch (const SchemaError& e) {
        EXPECT_EQ(std::string(e.what()),
                  (dir / "empty.json").string() + ":1:1: the schema is empty");
    }
}
