// The extension module mimic._mimic; the package's __init__.py re-exports it (python/mimic/__init__.py).
#include <pybind11/pybind11.h>
#include <spdlog/spdlog.h>

#include "bindings.hpp"

PYBIND11_MODULE(_mimic, m) {
  m.doc() = "mimic: HRP-2 motion retargeting, smoothing and checking (C++ core, issue 18 bindings)";
  // The library logs its progress through spdlog (the CLI shows it at info level); a script sees warnings
  // only unless it asks for more (set_log_level).
  spdlog::set_level(spdlog::level::warn);
  m.def(
      "set_log_level",
      [](const std::string& level) {
        const spdlog::level::level_enum value = spdlog::level::from_str(level);
        if (value == spdlog::level::off && level != "off")
          throw pybind11::value_error(
              "set_log_level: expected trace, debug, info, warning, error, "
              "critical or off; found '" +
              level + "'");
        spdlog::set_level(value);
      },
      pybind11::arg("level"),
      "Level of the messages the library prints on stderr / stdout: 'trace', 'debug', 'info' (what the "
      "mimic command shows), 'warning' (the default here), 'error', 'critical' or 'off'.");
  mimic::python::bind_errors(m);
  mimic::python::bind_robot(m);
  mimic::python::bind_dynamics(m);
  mimic::python::bind_clip(m);
  mimic::python::bind_pipeline(m);
}
