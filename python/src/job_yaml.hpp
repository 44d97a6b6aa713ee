// A job given to mimic.retarget / smooth / check as a Python dict becomes YAML text, which the job reader
// of `mimic batch` (io::parse_job) then reads: every key, type and range check of a job file applies to
// the dict, with the same messages (naming the key path).
#pragma once

#include <pybind11/pybind11.h>

#include <string>

namespace mimic::python {

// YAML::Node of a Python value: a Mapping becomes a mapping (keys must be str), a list or tuple a
// sequence, str / os.PathLike a quoted string, bool true / false, int and float their shortest
// round-trip text (nan and infinities as .nan, .inf, -.inf, left to the reader's range checks), None null.
// Anything else is a mimic.InputError naming the key path.
std::string job_yaml(const pybind11::dict& job);

}  // namespace mimic::python
