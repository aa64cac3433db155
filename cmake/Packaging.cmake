# `cmake --install` layout (GNUInstallDirs) and the Debian package (`cpack -G DEB`).
# Included from the top CMakeLists.txt once the dumpscope-cli (and dumpscope) targets exist.
include(GNUInstallDirs)

install(TARGETS dumpscope-cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The schema is compiled into the core; the installed copy is the starting point for a
# user's own `--schema FILE`.
install(FILES ${PROJECT_SOURCE_DIR}/resources/schema/default_schema.json
        DESTINATION ${CMAKE_INSTALL_DATADIR}/dumpscope)
# The Python capture package (dumpscope_capture), for a trainer's PYTHONPATH:
# <prefix>/share/dumpscope/python. It needs torch, which the package only suggests.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/dumpscope_capture
        DESTINATION ${CMAKE_INSTALL_DATADIR}/dumpscope/python
        FILES_MATCHING PATTERN "*.py" PATTERN "__pycache__" EXCLUDE)
# The C++ capture for trainers: header-only, standard library and POSIX alone, so that a
# trainer includes it without linking anything of dumpscope's.
install(FILES ${PROJECT_SOURCE_DIR}/core/include/dumpscope/capture.h
              ${PROJECT_SOURCE_DIR}/core/include/dumpscope/fingerprint.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dumpscope)
if(TARGET dumpscope)
    install(TARGETS dumpscope RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
    install(FILES ${PROJECT_SOURCE_DIR}/resources/dumpscope.desktop
            DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
    install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/dumpscope.svg
            DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME dumpscope)
set(CPACK_PACKAGE_VENDOR "dumpscope")
set(CPACK_PACKAGE_CONTACT "dumpscope maintainers" CACHE STRING "The .deb's Maintainer field")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "find where two training runs' GPU buffer dumps first diverge")
set(CPACK_PACKAGE_DESCRIPTION
    "dumpscope compares two runs' per-step buffer dumps bit for bit, names the first divergent
step, group and buffer, and the root cause by dataflow. dumpscope-cli needs no Qt; dumpscope
is the Qt triage window.")
set(CPACK_PACKAGE_INSTALL_DIRECTORY dumpscope)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# Library dependencies come from dpkg-shlibdeps (dpkg-dev), so they name exactly the Debian Qt6
# runtime packages the binaries link, with the versions they need. Plugins are not linked:
# the platform plugins (xcb, wayland) and the SVG icon engine are listed by hand.
find_program(DUMPSCOPE_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(DUMPSCOPE_DPKG_SHLIBDEPS)
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
    set(_dumpscope_deb_depends "")
else()
    message(STATUS "dpkg-shlibdeps not found: the .deb lists its library dependencies by hand")
    set(_dumpscope_deb_depends "libc6, libstdc++6, libgcc-s1")
    if(TARGET dumpscope)
        string(APPEND _dumpscope_deb_depends
               ", libqt6core6 (>= 6.4), libqt6gui6 (>= 6.4), libqt6widgets6 (>= 6.4), libqt6charts6 (>= 6.4)")
    endif()
endif()
if(TARGET dumpscope)
    list(APPEND _dumpscope_deb_depends "qt6-qpa-plugins" "libqt6svg6")
endif()
list(JOIN _dumpscope_deb_depends ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "python3-torch")
include(CPack)
