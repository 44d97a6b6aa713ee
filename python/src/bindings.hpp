// The parts of the extension module mimic._mimic, one function per concern, each in its own file; module.cpp
// calls them in this order (errors first: the others' docstrings and translators name its exceptions).
#pragma once

#include <pybind11/pybind11.h>

namespace mimic::python {

void bind_errors(pybind11::module_& m);    // errors.cpp: mimic.Error and its subclasses
void bind_robot(pybind11::module_& m);     // robot.cpp: load_robot, Robot
void bind_dynamics(pybind11::module_& m);  // dynamics.cpp: kinematics, CoM, RNEA and its derivatives
void bind_clip(pybind11::module_& m);      // clip.cpp: load_clip, Clip
void bind_pipeline(pybind11::module_& m);  // pipeline.cpp: retarget, smooth, check

}  // namespace mimic::python
