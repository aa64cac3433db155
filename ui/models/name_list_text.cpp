#include "models/name_list_text.h"

#include <QStringList>

QString joinedNames(const std::vector<std::string>& names) {
    QStringList list;
    for (const auto& s : names)
        list << QString::fromStdString(s);
    return list.join(QStringLiteral(", "));
}

QString cutNames(const std::vector<std::string>& names, std::size_t shown) {
    return QString::fromStdString(dumpscope::namesCut(names, shown));
}
