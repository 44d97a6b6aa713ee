# `cmake --install build --prefix P` (docs/ARCHITECTURE.md, "Install layout"):
#   P/bin/mimic                          the command line
#   P/include/mimic/<module>/*.hpp       the headers of every module
#   P/lib/libmimic_<module>.a            the module libraries, exported as mimic::<module>, and mimic::mimic
#   P/lib/cmake/mimic/                   mimicConfig.cmake + version file: find_package(mimic)
#   P/share/mimic/{config,models,data}   robot models, descriptions, presets, jobs, sample clips and motions
# The installed code finds P/share/mimic relative to its own file (src/mimic/core/data_dir.hpp).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(MIMIC_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/mimic)
set(MIMIC_INSTALL_DATADIR ${CMAKE_INSTALL_DATADIR}/mimic)

install(TARGETS mimic_app RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The libraries: every module and the whole-toolkit interface target `mimic`.
get_property(mimic_install_modules GLOBAL PROPERTY MIMIC_MODULES)
foreach(target ${mimic_install_modules})
  string(REGEX REPLACE "^mimic_" "" module ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${module})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/src/mimic/${module} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/mimic
          FILES_MATCHING PATTERN "*.hpp")
endforeach()
install(TARGETS mimic ${mimic_install_modules} EXPORT mimicTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})  # include dir: INSTALL_INTERFACE of mimic_module()
install(EXPORT mimicTargets NAMESPACE mimic:: DESTINATION ${MIMIC_INSTALL_CMAKEDIR})

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/mimicConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/mimicConfig.cmake
                              INSTALL_DESTINATION ${MIMIC_INSTALL_CMAKEDIR} PATH_VARS MIMIC_INSTALL_DATADIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/mimicConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/mimicConfig.cmake ${PROJECT_BINARY_DIR}/mimicConfigVersion.cmake
        DESTINATION ${MIMIC_INSTALL_CMAKEDIR})

# The data directory: what core::data_dir() must find (config/robots/hrp2.yaml marks it) and what the
# README's commands read. Generators of shipped files (models/*.py) stay in the source tree.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/config DESTINATION ${MIMIC_INSTALL_DATADIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/models DESTINATION ${MIMIC_INSTALL_DATADIR} PATTERN "*.py" EXCLUDE)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/data/mocap ${PROJECT_SOURCE_DIR}/data/motions
        DESTINATION ${MIMIC_INSTALL_DATADIR}/data)

include(${PROJECT_SOURCE_DIR}/cmake/MimicPackage.cmake)
