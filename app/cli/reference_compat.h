#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace dumpscope {

// Behaves byte for byte as compare-backward-state.py RUN_A RUN_B: value equality, steps 0-3,
// one-sided buffers skipped, Python float formatting, max|Δ| over the first five differences.
// Writes to `out` / `err` what the script writes to stdout / stderr; returns its exit code.
int runReferenceCompat(const std::string& runA, const std::string& runB, std::ostream& out,
                       std::ostream& err);

// Why `--reference-compat` refuses the other options given with it (`--json`, `--report`), empty
// when there are none: the script takes two run directories and nothing else, so such an option
// would be ignored and its output not be what was asked for.
std::string referenceCompatRefusal(const std::vector<std::string>& givenOptions);

// Python's repr() of a double ("0.1", "1e-05", "-0.0", "inf", "nan", "1.5e+16").
std::string pythonFloatRepr(double value);
// Python's format(value, ".6g").
std::string pythonFormatG6(double value);
// Python's repr() of the str that the bytes `s` decode to (UTF-8, surrogateescape): single
// quotes unless it has a single quote and no double quote; backslash, that quote, control and
// non-printable characters escaped, bytes that are not UTF-8 as "\udcXX". Unassigned code
// points are not escaped (Python's set depends on its Unicode version).
std::string pythonStrRepr(const std::string& s);
// What Python's stderr (backslashreplace) prints for the str the bytes `s` decode to: bytes
// that are not UTF-8 become "\udcXX".
std::string pythonStderrText(const std::string& s);
// What pathlib.Path(arg) prints: repeated and trailing slashes and "." components dropped.
std::string pythonPathStr(const std::string& arg);

} // namespace dumpscope
