// The command line's numeric option parsing (app/cli/cli_options.h) at the edges of each range,
// and shown(), the one escape every name and path in the CLI's text goes through.
#include "cli_options.h"
#include "cli_terminal.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <set>
#include <string>

using namespace dumpscope;

namespace {

std::string refusal(const std::function<void()>& parse) {
    try {
        parse();
    } catch (const OptionError& e) {
        return e.what();
    }
    return "(taken)";
}

} // namespace

TEST(CliOptions, RealValuesAreTakenUpToTheEdgesOfTheirRange) {
    EXPECT_EQ(parseRealOption("--settle", "0", kSettleRange), 0.0);
    EXPECT_EQ(parseRealOption("--settle", "86400", kSettleRange), 86400.0);
    EXPECT_EQ(parseRealOption("--settle", "0.25", kSettleRange), 0.25);
    EXPECT_EQ(parseRealOption("--atol", "1e300", kAtolRange), 1e300);
    EXPECT_EQ(parseRealOption("--atol", "1e-6", kAtolRange), 1e-6);
    EXPECT_EQ(parseRealOption("--atol", "-0", kAtolRange), 0.0);
    EXPECT_EQ(parseRealOption("--rounding-threshold", "1", kRoundingThresholdRange), 1.0);
    EXPECT_EQ(parseRealOption("--rounding-threshold", "5e-324", kRoundingThresholdRange), 5e-324);
    // Too small to hold is zero, which a tolerance takes and a threshold refuses.
    EXPECT_EQ(parseRealOption("--atol", "1e-400", kAtolRange), 0.0);
    EXPECT_EQ(
        refusal([] { parseRealOption("--rounding-threshold", "1e-400", kRoundingThresholdRange); }),
        "--rounding-threshold '1e-400' is out of range: --rounding-threshold takes a ratio greater "
        "than 0 "
        "and at most 1");
}

TEST(CliOptions, RealValuesOutsideTheirRangeOrNotNumbersAreRefused) {
    EXPECT_EQ(refusal([] { parseRealOption("--settle", "86400.5", kSettleRange); }),
              "--settle '86400.5' is out of range: --settle takes seconds from 0 to 86400");
    EXPECT_EQ(refusal([] { parseRealOption("--settle", "-1e-9", kSettleRange); }),
              "--settle '-1e-9' is out of range: --settle takes seconds from 0 to 86400");
    for (const char* notNumber :
         {"nan", "-nan", "NAN", "nan(123)", "", "1,5", "1.5s", "+1", " 1", "1 ", "0x1p3"})
        EXPECT_EQ(refusal([&] { parseRealOption("--atol", notNumber, kAtolRange); }),
                  "--atol '" + std::string(notNumber) +
                      "' is not a number: --atol takes an absolute tolerance from 0 to 1e300")
            << notNumber;
    for (const char* outOfRange : {"inf", "-inf", "infinity", "1e400", "1e301", "-1"})
        EXPECT_EQ(refusal([&] { parseRealOption("--rtol", outOfRange, kRtolRange); }),
                  "--rtol '" + std::string(outOfRange) +
                      "' is out of range: --rtol takes a relative tolerance from 0 to 1e300")
            << outOfRange;
    EXPECT_EQ(
        refusal([] { parseRealOption("--rounding-threshold", "0", kRoundingThresholdRange); }),
        "--rounding-threshold '0' is out of range: --rounding-threshold takes a ratio greater than "
        "0 and at "
        "most 1");
}

TEST(CliOptions, CountsAreWholeNumbersWithinTheirRange) {
    EXPECT_EQ(parseCountOption("--ulp", "0", kUlpRange), 0u);
    EXPECT_EQ(parseCountOption("--ulp", "9223372036854775808", kUlpRange), std::uint64_t{1} << 63);
    EXPECT_EQ(parseCountOption("--until-step", "18446744073709551615", kStepRange), UINT64_MAX);
    EXPECT_EQ(refusal([] { parseCountOption("--ulp", "9223372036854775809", kUlpRange); }),
              "--ulp '9223372036854775809' is out of range: --ulp takes a whole number of ULP from "
              "0 to 2^63");
    EXPECT_EQ(refusal([] { parseCountOption("--until-step", "18446744073709551616", kStepRange); }),
              "--until-step '18446744073709551616' is out of range: --until-step takes a step "
              "number from 0 to "
              "2^64 - 1");
    EXPECT_EQ(
        refusal([] { parseCountOption("--ulp", "4.5", kUlpRange); }),
        "--ulp '4.5' is not a whole number: --ulp takes a whole number of ULP from 0 to 2^63");
    EXPECT_EQ(
        refusal([] { parseCountOption("--ulp", "1e3", kUlpRange); }),
        "--ulp '1e3' is not a whole number: --ulp takes a whole number of ULP from 0 to 2^63");
    for (const char* outOfRange : {"-1", "-0.5", "1e400", "inf", "1e19"})
        EXPECT_NE(refusal([&] {
                      parseCountOption("--ulp", outOfRange, kUlpRange);
                  }).find("is out of range"),
                  std::string::npos)
            << outOfRange;
    for (const char* notNumber : {"", "nan", "four", "+4", "4 ", "0x10"})
        EXPECT_NE(refusal([&] {
                      parseCountOption("--ulp", notNumber, kUlpRange);
                  }).find("is not a number"),
                  std::string::npos)
            << notNumber;
}

TEST(CliOptions, StepListsEndAtTheLargestStepAndStayBounded) {
    EXPECT_EQ(parseStepsOption("0-3,7,5"), (std::set<std::uint64_t>{0, 1, 2, 3, 5, 7}));
    EXPECT_EQ(parseStepsOption("18446744073709551613-18446744073709551615"),
              (std::set<std::uint64_t>{UINT64_MAX - 2, UINT64_MAX - 1, UINT64_MAX}));
    EXPECT_EQ(parseStepsOption("4-4"), (std::set<std::uint64_t>{4}));
    EXPECT_EQ(parseStepsOption("0-999999").size(), kMaxSelectedSteps);
    EXPECT_NE(refusal([] { parseStepsOption("0-1000000"); }).find("selects too many steps"),
              std::string::npos);
    EXPECT_NE(
        refusal([] { parseStepsOption("0-499999,500000-1000000"); }).find("selects too many steps"),
        std::string::npos);
    EXPECT_EQ(refusal([] { parseStepsOption("99999999999999999999"); }),
              "--steps '99999999999999999999' holds a step beyond 2^64 - 1: --steps takes a list "
              "of step numbers "
              "and ranges like 0-3,7 (a step number from 0 to 2^64 - 1, at most 1000000 steps)");
}

TEST(CliOptions, ARefusedValueIsShownEscapedAndCutShort) {
    const std::string message =
        refusal([] { parseRealOption("--atol", "1\n\x1b]0;x\x07", kAtolRange); });
    EXPECT_EQ(message.find_first_of("\n\x1b\x07"), std::string::npos) << message;
    EXPECT_EQ(message.rfind("--atol '1\\x0A\\x1B]0;x\\x07' is not a number", 0), 0u) << message;
    const std::string longValue(100000, '7');
    const std::string cut = refusal([&] { parseRealOption("--settle", longValue, kSettleRange); });
    EXPECT_EQ(cut, "--settle '" + std::string(40, '7') +
                       "...' is out of range: --settle takes seconds from 0 to 86400");
}

TEST(CliShown, EscapesControlsAndInvalidUtf8AndKeepsTheRest) {
    EXPECT_EQ(shown("q_logits Δ ü"), "q_logits Δ ü");
    EXPECT_EQ(shown("a\nb\rc\td\x1b[31m\x7f"), "a\\x0Ab\\x0Dc\\x09d\\x1B[31m\\x7F");
    // C1 controls, as UTF-8: U+009B is CSI, U+009D OSC on terminals that take 8-bit controls.
    EXPECT_EQ(shown("x\xc2\x9b"
                    "31m\xc2\x9d"
                    "0;t\xc2\x85y"),
              "x\\xC2\\x9B31m\\xC2\\x9D0;t\\xC2\\x85y");
    EXPECT_EQ(shown("\xc2\xa0"), "\xc2\xa0"); // U+00A0 is printable
    EXPECT_EQ(shown("bad\xff\xc3"), "bad\\xFF\\xC3");
    EXPECT_EQ(shown(std::filesystem::path("run\n/a\x1b")), "run\\x0A/a\\x1B");
    EXPECT_EQ(shownLines("one\x1b\ntwo\n"), "one\\x1B\ntwo\n");
}

TEST(CliProgress, ByteCountsReadAsAPersonWouldWriteThem) {
    EXPECT_EQ(dumpscope::byteCount(0), "0 B");
    EXPECT_EQ(dumpscope::byteCount(1023), "1023 B");
    EXPECT_EQ(dumpscope::byteCount(1024), "1.0 KiB");
    EXPECT_EQ(dumpscope::byteCount(8ull << 30), "8.0 GiB");
    EXPECT_EQ(dumpscope::byteCount(~0ull), "16.0 EiB");
    EXPECT_EQ(
        dumpscope::lengthMismatchNote("x.bin", 4, 1536),
        "x.bin: lengths differ (A 4 B, B 1.5 KiB): the common 4 B are compared, and all of B's "
        "1.5 KiB are read for its hash");
    EXPECT_EQ(dumpscope::lengthMismatchNote("a\nb", 2, 1),
              "a\\x0Ab: lengths differ (A 2 B, B 1 B): the common 1 B "
              "are compared, and all of A's 2 B are read for its hash");
}
