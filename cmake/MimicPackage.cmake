# `cpack -G DEB` in the build folder: a Debian package of everything cmake/MimicInstall.cmake installs,
# under /usr. Its Depends are computed by dpkg-shlibdeps (package dpkg-dev) from the shared libraries the
# installed files link (Ipopt, yaml-cpp, urdfdom, spdlog, fmt, libstdc++, ...), so they name the Debian
# runtime packages of the machine that builds it. The headers and CMake package need the -dev packages
# of those libraries to be used; they are Suggests, not Depends, so that the command line installs alone.
set(CPACK_PACKAGE_NAME mimic)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "mimic")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "Motion capture to HRP-2 humanoid motions: retargeting, torque-minimal smoothing, walking, checking")
set(CPACK_PACKAGE_INSTALL_DIRECTORY mimic)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # mimic_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "mimic maintainers <mimic@localhost>")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# What dpkg-shlibdeps cannot see (CPack appends its result to these): `mimic view` inlines Debian's
# three.js read at run time, and the Python package needs Debian's Python 3 and numpy. Headless Chromium
# only makes `mimic view --png` snapshots: recommended, not required.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libjs-three, python3, python3-numpy")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "chromium")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS
    "libeigen3-dev, libspdlog-dev, libyaml-cpp-dev, liburdfdom-dev, libassimp-dev, coinor-libipopt-dev, pkg-config, cmake")

include(CPack)
