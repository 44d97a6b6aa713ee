# The module graph of mimic: the one place that says which module may use which (docs/ARCHITECTURE.md).
#
# mimic_module(<name> DEPS <deps...>): a static library mimic_<name> from src/mimic/<name>/*.cpp (an
# interface library when the module is header-only); headers are included as "mimic/<name>/<file>.hpp".
# The mimic_* entries of DEPS are the module's direct dependencies: CMake links them PUBLIC, and the ctest
# `module_graph` (scripts/check_module_graph.py) fails on an #include of a module that is not reachable
# through them. Other entries are third-party targets. Declare modules bottom-up, one block each,
# separated by a blank line (so that changes to two modules merge without conflict).
include(GNUInstallDirs)  # CMAKE_INSTALL_INCLUDEDIR of the installed interface

function(mimic_module name)
  cmake_parse_arguments(ARG "" "" "DEPS" ${ARGN})
  foreach(d ${ARG_DEPS})
    if(d MATCHES "^mimic_" AND NOT TARGET ${d})
      message(FATAL_ERROR "mimic_module(${name}): ${d} is not declared above it (declare modules bottom-up)")
    endif()
  endforeach()
  file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/mimic/${name}/*.cpp)
  if(sources)
    add_library(mimic_${name} STATIC ${sources})
    set(scope PUBLIC)
  else()
    add_library(mimic_${name} INTERFACE)
    set(scope INTERFACE)
  endif()
  # Headers from the source tree in the build, from <prefix>/include once installed (MimicInstall.cmake).
  target_include_directories(mimic_${name} ${scope} $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src>
                                                    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(mimic_${name} ${scope} ${ARG_DEPS})
  set_property(GLOBAL APPEND PROPERTY MIMIC_MODULES mimic_${name})
endfunction()

mimic_module(core       DEPS Eigen3::Eigen spdlog::spdlog yaml-cpp Threads::Threads ${CMAKE_DL_LIBS})
# core/data_dir falls back to the source tree in the build tree; PRIVATE, so that the path reaches no other
# file and no installed interface (everything else asks core::data_dir()).
target_compile_definitions(mimic_core PRIVATE MIMIC_SOURCE_DIR="${PROJECT_SOURCE_DIR}")

mimic_module(spatial    DEPS mimic_core Eigen3::Eigen)

mimic_module(model      DEPS mimic_spatial urdfdom::urdfdom_model yaml-cpp)

mimic_module(dynamics   DEPS mimic_model)

# Collision shapes of the robot, self-collision distances and sole-corner heights with their q-gradients
# (issue 13); urdfdom reads the URDF's <collision> elements, assimp their meshes (issue 16).
mimic_module(geometry   DEPS mimic_dynamics urdfdom::urdfdom_model assimp::assimp)


mimic_module(mocap      DEPS mimic_core Eigen3::Eigen spdlog::spdlog yaml-cpp)

mimic_module(trajectory DEPS mimic_core Eigen3::Eigen)

mimic_module(optim      DEPS mimic_core Eigen3::Eigen spdlog::spdlog PkgConfig::IPOPT)

mimic_module(io         DEPS mimic_model mimic_optim Eigen3::Eigen yaml-cpp spdlog::spdlog)

mimic_module(stability  DEPS mimic_dynamics)

# The check of a motion and the one report and peak type of every evaluation (evaluation/report.hpp).
mimic_module(evaluation DEPS mimic_stability mimic_geometry)

# Footstep plans, the walking schedule, preview control and the walking pattern. Files are read and written
# by the walk stage (pipeline/walk): walking gets the upper body as data.
mimic_module(walking    DEPS mimic_stability mimic_evaluation)

# Sample-local terms of the optimisation problems (term.hpp) and the velocity rows on control points.
mimic_module(terms      DEPS mimic_stability mimic_trajectory mimic_optim mimic_geometry)

mimic_module(motion     DEPS mimic_terms mimic_evaluation)

mimic_module(retarget   DEPS mimic_mocap mimic_dynamics)

# pipeline/job_options maps a job onto the options of every stage below it (motion, smooth, walking,
# stability, evaluation): the one reader of io::JobConfig below apps/.
mimic_module(pipeline   DEPS mimic_motion mimic_retarget mimic_walking mimic_evaluation mimic_io)

# `mimic view` (issue 18): a motion's scene (forward kinematics, ZMP, support, the check's violations per
# frame), the self-contained HTML page (cmake/MimicViewer.cmake embeds its template) and Chromium snapshots.
mimic_module(view       DEPS mimic_pipeline)

# What apps/ may include (not transitive: the CLI calls pipeline/ and names the types of io, model and core;
# `mimic` would allow every module). mimic_app links these, and through them the rest.
set(MIMIC_APP_MODULES mimic_view mimic_pipeline mimic_io mimic_model mimic_core)
