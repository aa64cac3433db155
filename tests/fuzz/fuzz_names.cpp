// Fuzzes the text helpers every buffer, file and group name goes through on its way into a
// report (names come from file names and schemas: any bytes). validUtf8 and displayText give
// well-formed UTF-8 (nlohmann's dump then cannot throw), displayText no control characters,
// htmlEscape no raw markup characters; Python's repr of the name (reference mode) is ASCII-safe
// where the reference prints it.
#include "dumpscope/utf8.h"
#include "reference_compat.h"
#include "report/report_text.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace dumpscope;

namespace {

void check(bool ok) {
    if (!ok) std::abort();
}

bool wellFormed(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        char32_t cp = 0;
        const std::size_t n = decodeUtf8(s, i, cp);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string name(reinterpret_cast<const char*>(data), size);

    const std::string valid = report::validUtf8(name);
    check(wellFormed(valid));
    if (wellFormed(name)) check(valid == name);
    check(!nlohmann::json(valid).dump().empty()); // throws type_error 316 on invalid UTF-8

    const std::string display = report::displayText(name);
    check(wellFormed(display));
    for (unsigned char c : display)
        check(c >= 0x20 && c != 0x7F);

    for (bool keepLines : {false, true}) {
        const std::string html = report::htmlEscape(name, keepLines);
        check(wellFormed(html));
        for (unsigned char c : html) {
            check(c != '<' && c != '>' && c != '"' && c != '\'');
            check(c >= 0x20 || (keepLines && (c == '\n' || c == '\t')));
        }
        // Every & starts a character reference.
        for (std::size_t p = html.find('&'); p != std::string::npos; p = html.find('&', p + 1))
            check(html.find(';', p) != std::string::npos && html.find(';', p) - p <= 6);
    }

    const std::string repr = pythonStrRepr(name);
    check(repr.size() >= 2 && (repr.front() == '\'' || repr.front() == '"') &&
          repr.back() == repr.front());
    check(wellFormed(pythonStderrText(name)));
    (void)pythonPathStr(name);
    return 0;
}
