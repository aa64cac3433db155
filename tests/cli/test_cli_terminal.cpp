// The real dumpscope-cli on a terminal and off it: --color, the progress bar, --help.
// "On a terminal" is a pseudo-terminal the test opens with forkpty.
#include "run_fixture.h"

#include <gtest/gtest.h>

#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>

using dumpscope::test::ProcessResult;
using dumpscope::test::TempDir;
namespace fs = std::filesystem;

namespace {

ProcessResult cli(std::vector<std::string> args, const std::vector<std::string>& env = {}) {
    args.insert(args.begin(), DUMPSCOPE_CLI_PATH);
    return dumpscope::test::runProcess(args, env);
}

// Runs dumpscope-cli with stdout and stderr on one pseudo-terminal; returns what it wrote there
// (in `out`) and its exit code. `env` entries "NAME=value" are set, "NAME" alone unsets.
ProcessResult cliInPty(std::vector<std::string> args, const std::vector<std::string>& env = {}) {
    args.insert(args.begin(), DUMPSCOPE_CLI_PATH);
    int master = -1;
    const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
    if (pid < 0) return {};
    if (pid == 0) {
        for (const auto& e : env) {
            const auto eq = e.find('=');
            if (eq == std::string::npos)
                unsetenv(e.c_str());
            else
                setenv(e.substr(0, eq).c_str(), e.substr(eq + 1).c_str(), 1);
        }
        std::vector<char*> argv;
        for (auto& a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        execv(argv[0], argv.data());
        _exit(127);
    }
    ProcessResult r;
    char buf[4096];
    for (;;) {
        const ssize_t n = read(master, buf, sizeof buf);
        if (n > 0) {
            r.out.append(buf, static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        break; // EOF or EIO: the child closed the terminal
    }
    close(master);
    int status = 0;
    waitpid(pid, &status, 0);
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

// The demo pair plus one unclassified 40 MiB file on each side (sparse, equal): over 80 MiB in
// all, above the progress bar's 64 MiB.
void writeLargePair(const TempDir& dir) {
    ASSERT_EQ(cli({"--make-demo", dir.path().string()}).exitCode, 0);
    for (const char* run : {"a", "b"}) {
        const fs::path big = dir / run / "step_0_big_scratch.bin";
        dumpscope::test::writeText(big, "");
        fs::resize_file(big, 40u << 20);
    }
}

bool hasAnsi(const std::string& s) {
    return s.find('\033') != std::string::npos;
}

std::string withoutAnsi(const std::string& s) {
    return std::regex_replace(s, std::regex("\033\\[[0-9;]*m"), "");
}

const std::string kRed = "\033[31m", kGreen = "\033[32m", kYellow = "\033[33m";

} // namespace

TEST(CliColor, AlwaysColoursDivergingRedEqualGreenAndOnlyAddsEscapes) {
    TempDir dir;
    ASSERT_EQ(cli({"--make-demo", dir.path().string()}).exitCode, 0);
    const auto a = (dir / "a").string(), b = (dir / "b").string();
    const auto plain = cli({a, b, "--color", "never"});
    const auto coloured = cli({a, b, "--color", "always"});
    ASSERT_EQ(coloured.exitCode, 1) << coloured.err;
    EXPECT_NE(coloured.out.find(kRed + "q_logits [f32] DIVERGE"), std::string::npos)
        << coloured.out;
    EXPECT_NE(coloured.out.find(kGreen + "pi_logits [f32] EQUAL"), std::string::npos)
        << coloured.out;
    EXPECT_NE(coloured.out.find("\033[1;31mROOT CAUSE by dataflow"), std::string::npos);
    EXPECT_EQ(withoutAnsi(coloured.out), plain.out);
    EXPECT_EQ(coloured.exitCode, plain.exitCode);
}

TEST(CliColor, WarningsAreYellowOnStderr) {
    TempDir dir;
    ASSERT_EQ(cli({"--make-demo", dir.path().string()}).exitCode, 0);
    fs::create_directory(dir / "a" / "step_9_h_q_logits.bin"); // a directory named like a dump
    const auto r = cli({(dir / "a").string(), (dir / "b").string(), "--color", "always", "-q"});
    EXPECT_NE(r.err.find(kYellow + "warning:\033[0m "), std::string::npos) << r.err;
}

TEST(CliColor, NeverAndAutoOffATerminalWriteNoEscapes) {
    TempDir dir;
    ASSERT_EQ(cli({"--make-demo", dir.path().string()}).exitCode, 0);
    const auto a = (dir / "a").string(), b = (dir / "b").string();
    const std::vector<std::vector<std::string>> runs{
        {a, b}, {a, b, "--color", "auto"}, {a, b, "--color", "never"}};
    for (const auto& args : runs) {
        const auto r = cli(args);
        EXPECT_EQ(r.exitCode, 1);
        EXPECT_FALSE(hasAnsi(r.out));
        EXPECT_FALSE(hasAnsi(r.err));
    }
    EXPECT_EQ(cli({a, b, "--color", "sometimes"}).exitCode, 2);
}

TEST(CliColor, AutoOnATerminalColoursUnlessNoColorOrDumbTerm) {
    TempDir dir;
    ASSERT_EQ(cli({"--make-demo", dir.path().string()}).exitCode, 0);
    const std::vector<std::string> args{(dir / "a").string(), (dir / "b").string(), "-q"};
    const auto tty = cliInPty(args, {"NO_COLOR", "TERM=xterm"});
    EXPECT_EQ(tty.exitCode, 1);
    EXPECT_NE(tty.out.find(kRed), std::string::npos) << tty.out;
    EXPECT_FALSE(hasAnsi(cliInPty(args, {"NO_COLOR=1", "TERM=xterm"}).out));
    EXPECT_FALSE(hasAnsi(cliInPty(args, {"NO_COLOR", "TERM=dumb"}).out));
    EXPECT_FALSE(hasAnsi(
        cliInPty({args[0], args[1], "-q", "--color", "never"}, {"NO_COLOR", "TERM=xterm"}).out));
}

TEST(CliProgress, ABarOnATerminalForALargePair) {
    TempDir dir;
    writeLargePair(dir);
    const auto r = cliInPty({(dir / "a").string(), (dir / "b").string(), "-q", "--color", "never"});
    EXPECT_EQ(r.exitCode, 1);
    // Drawn at least for the first and the last buffer, then blanked before the verdict.
    EXPECT_NE(r.out.find("\r[#"), std::string::npos) << r.out;
    const std::regex last("\\[#{24}\\] 100%  (\\d+)/\\1 buffers  (\\d+)/\\2 MiB");
    EXPECT_TRUE(std::regex_search(r.out, last)) << r.out;
    const auto verdict = r.out.find("VERDICT");
    const auto lastBar = r.out.rfind("MiB", verdict);
    ASSERT_NE(verdict, std::string::npos);
    ASSERT_NE(lastBar, std::string::npos);
    EXPECT_TRUE(
        std::regex_match(r.out.substr(lastBar + 3, verdict - lastBar - 3), std::regex("\r +\r")));
}

TEST(CliProgress, SaysWhyAShortFileAgainstAHugeOneIsReadWhole) {
    TempDir dir;
    ASSERT_EQ(cli({"--make-demo", dir.path().string()}).exitCode, 0);
    const fs::path bigA = dir / "a" / "step_0_big_scratch.bin",
                   smallB = dir / "b" / "step_0_big_scratch.bin";
    dumpscope::test::writeText(bigA, "");
    fs::resize_file(bigA, 70u << 20);
    dumpscope::test::writeText(smallB, "");
    fs::resize_file(smallB, 4096);
    const std::vector<std::string> args{(dir / "a").string(), (dir / "b").string(), "-q", "--color",
                                        "never"};
    const auto r = cliInPty(args);
    EXPECT_EQ(r.exitCode, 1);
    const std::string note =
        "dumpscope-cli: step_0_big_scratch.bin: lengths differ (A 70.0 MiB, B 4.0 KiB): "
        "the common 4.0 KiB are compared, and all of A's 70.0 MiB are read for its hash\r\n";
    const auto at = r.out.find(note);
    EXPECT_NE(at, std::string::npos) << r.out;
    EXPECT_LT(at, r.out.find("\r[")) << "the note comes before the bar, which it explains";
    EXPECT_EQ(r.out.find("lengths differ", at + note.size()), std::string::npos) << "said once";
    // Off a terminal there is no bar and so nothing to explain; the report says LENGTH MISMATCH.
    const auto piped = cli(args);
    EXPECT_EQ(piped.err.find("lengths differ"), std::string::npos) << piped.err;
}

TEST(CliProgress, NoBarOnAPipeOrForASmallPair) {
    TempDir dir;
    writeLargePair(dir);
    const auto piped = cli({(dir / "a").string(), (dir / "b").string(), "-q"});
    EXPECT_EQ(piped.exitCode, 1);
    EXPECT_TRUE(piped.err.empty()) << piped.err;
    EXPECT_EQ(piped.out.find('\r'), std::string::npos);

    TempDir small;
    ASSERT_EQ(cli({"--make-demo", small.path().string()}).exitCode, 0);
    const auto tty = cliInPty({(small / "a").string(), (small / "b").string(), "-q"});
    EXPECT_EQ(tty.exitCode, 1);
    EXPECT_EQ(tty.out.find("buffers  "), std::string::npos) << tty.out;
}

TEST(CliHelp, DocumentsEveryOptionWithAnExample) {
    const auto r = cli({"--help"});
    ASSERT_EQ(r.exitCode, 0);
    const auto examples = r.out.find("Examples:");
    ASSERT_NE(examples, std::string::npos) << r.out;
    const std::string options = r.out.substr(0, examples), footer = r.out.substr(examples);
    std::set<std::string> listed;
    const std::regex longOption("--[a-z][a-z-]*");
    for (std::sregex_iterator it(options.begin(), options.end(), longOption), end; it != end; ++it)
        listed.insert(it->str());
    for (const char* known :
         {"--json", "--report", "--schema", "--steps", "--strict", "--quiet", "--reference-compat",
          "--atol", "--rtol", "--ulp", "--verdict-tolerance", "--rounding-threshold", "--shape",
          "--make-demo", "--color", "--version", "--help", "--layout"})
        EXPECT_TRUE(listed.count(known)) << known << " is not in --help";
    for (const auto& option : listed)
        EXPECT_TRUE(std::regex_search(footer, std::regex(option + "\\b")))
            << option << " has no example in --help's Examples (the footer in app/cli/cli.cpp)";
}
