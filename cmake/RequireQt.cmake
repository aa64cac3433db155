# The GUI is the product, so a default configure needs Qt6 Widgets + Charts (+ Test for its
# tests) and stops when one is missing. Qt's own message names only the CMake package; this one
# adds the Debian package that brings it, because the usual cause is a Recommends that an
# `--no-install-recommends` install left out (Qt6Charts needs Qt6OpenGL, a Recommends of
# qt6-base-dev). Each component is looked up on its own so that the first missing link of a
# dependency chain is the one named.

# CMake package -> Debian package that installs its config (Debian 12, Qt 6.4).
set(_dumpscope_qt_debian_Qt6 qt6-base-dev)
set(_dumpscope_qt_debian_Qt6Core qt6-base-dev)
set(_dumpscope_qt_debian_Qt6Gui qt6-base-dev)
set(_dumpscope_qt_debian_Qt6Widgets qt6-base-dev)
set(_dumpscope_qt_debian_Qt6Test qt6-base-dev)
set(_dumpscope_qt_debian_Qt6OpenGL libqt6opengl6-dev)
set(_dumpscope_qt_debian_Qt6OpenGLWidgets libqt6opengl6-dev)
set(_dumpscope_qt_debian_Qt6Charts qt6-charts-dev)

function(dumpscope_require_qt)
    set(components Widgets Charts Test)
    find_package(Qt6 6.4 QUIET)
    if(NOT Qt6_FOUND)
        set(missing Qt6)
        if(CMAKE_DISABLE_FIND_PACKAGE_Qt6)
            set(why "CMAKE_DISABLE_FIND_PACKAGE_Qt6 is set")
        else()
            set(why "no Qt6Config.cmake was found")
        endif()
    else()
        foreach(component IN LISTS components)
            find_package(Qt6${component} ${Qt6_VERSION} QUIET PATHS ${Qt6_DIR}/.. NO_DEFAULT_PATH)
            if(NOT Qt6${component}_FOUND)
                set(missing Qt6${component})
                set(why "${Qt6${component}_NOT_FOUND_MESSAGE}")
                # Qt's message names the dependency that failed ("because dependency Qt6OpenGL
                # could not be found"); that one is what has to be installed.
                if(why MATCHES "dependency (Qt6[A-Za-z]+) could not be found")
                    set(missing ${CMAKE_MATCH_1})
                endif()
                break()
            endif()
        endforeach()
    endif()
    if(DEFINED missing)
        set(debian "${_dumpscope_qt_debian_${missing}}")
        if(debian STREQUAL "")
            set(debian "the Debian package that provides ${missing}Config.cmake")
        endif()
        string(REGEX REPLACE "\n.*" "" why "${why}")
        message(FATAL_ERROR
            "dumpscope's window needs Qt6 Widgets, Charts and Test (6.4 or later), and the CMake "
            "package ${missing} is missing (${why}).\n"
            "Install it with:  apt-get install ${debian}\n"
            "(scripts/setup.sh installs every package the build needs.)\n"
            "To build only the core library and dumpscope-cli, without the window, configure "
            "with -DDUMPSCOPE_GUI=OFF.")
    endif()
    find_package(Qt6 6.4 REQUIRED COMPONENTS ${components})
endfunction()
