#include "cli_alignment.h"

#include "cli_terminal.h"

#include "dumpscope/name_alignment.h"

#include <ostream>
#include <string>

namespace dumpscope {

namespace {

std::string how(const NamePair& p) {
    switch (p.by) {
    case PairedBy::map:
        return p.rule.empty() ? "set in the window" : "map " + p.rule;
    case PairedBy::wrapped_match:
        return "auto: name under wrapping modules, type and shape";
    case PairedBy::exact_match:
        return "auto: order, type and shape";
    case PairedBy::shape_match:
        return "auto: order and shape";
    }
    return {};
}

void writeNames(const char* run, const std::vector<std::string>& names, std::ostream& out) {
    if (names.empty()) return;
    out << "  not paired, only in run " << run << ":";
    for (const auto& n : names)
        out << " " << shown(n);
    out << "\n";
}

} // namespace

void writeAlignmentText(const Analysis& an, bool quiet, std::ostream& out) {
    if (!an.alignment) return;
    const NameAlignment& al = *an.alignment;
    const std::string mode = std::string("--align ") + std::string(alignModeName(al.mode)) +
                             (al.mapped ? " with a name map" : "");
    if (quiet) {
        out << "names paired (" << mode << "): " << al.pairs.size()
            << " pairs; not paired: " << al.unpairedA.size() << " only in run A, "
            << al.unpairedB.size() << " only in run B\n";
        return;
    }
    out << "names paired (" << mode << "), run A's name" << kPairArrow << "run B's:\n";
    if (al.pairs.empty()) out << "  (none)\n";
    for (const auto& p : al.pairs)
        out << "  " << shown(p.nameA) << kPairArrow << shown(p.nameB) << "  (" << shown(how(p))
            << (p.places > 1 ? ", " + std::to_string(p.places) + " steps/ranks" : "") << ")\n";
    writeNames("A", al.unpairedA, out);
    writeNames("B", al.unpairedB, out);
    out << "\n";
}

} // namespace dumpscope
