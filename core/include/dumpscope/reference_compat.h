#pragma once

#include <iosfwd>
#include <string>

namespace dumpscope {

// Behaves byte for byte as compare-backward-state.py RUN_A RUN_B: value equality, steps 0-3,
// one-sided buffers skipped, Python float formatting, max|Δ| over the first five differences.
// Writes to `out` / `err` what the script writes to stdout / stderr; returns its exit code.
int runReferenceCompat(const std::string& runA, const std::string& runB, std::ostream& out,
                       std::ostream& err);

// Python's repr() of a double ("0.1", "1e-05", "-0.0", "inf", "nan", "1.5e+16").
std::string pythonFloatRepr(double value);
// Python's format(value, ".6g").
std::string pythonFormatG6(double value);
// Python's repr() of a str holding `s` (UTF-8): single quotes unless it has a single quote and
// no double quote; backslash, the quote and ASCII control bytes escaped. Other non-ASCII code
// points are passed through (Python would also escape the non-printable ones, e.g. U+00A0).
std::string pythonStrRepr(const std::string& s);
// What pathlib.Path(arg) prints: repeated and trailing slashes and "." components dropped.
std::string pythonPathStr(const std::string& arg);

} // namespace dumpscope
