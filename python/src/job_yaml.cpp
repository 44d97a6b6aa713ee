#include "job_yaml.hpp"

#include <yaml-cpp/yaml.h>

#include <cmath>

#include "mimic/core/error.hpp"

namespace py = pybind11;

namespace mimic::python {
namespace {

// Block style for every mapping and sequence, so that each key of the dict sits on a line of its own and
// the reader's "line N" points at one key.
void emit(YAML::Emitter& out, const py::handle& value, const std::string& key_path) {
  const std::string where = key_path.empty() ? "job" : key_path;
  if (value.is_none()) {
    out << YAML::Null;
  } else if (py::isinstance<py::bool_>(value)) {  // before int: bool is an int subclass in Python
    out << (value.cast<bool>() ? "true" : "false");
  } else if (py::isinstance<py::int_>(value) || py::hasattr(value, "__index__")) {
    out << py::str(py::int_(py::reinterpret_borrow<py::object>(value))).cast<std::string>();
  } else if (py::isinstance<py::float_>(value) || py::hasattr(value, "__float__")) {
    const double number = py::float_(py::reinterpret_borrow<py::object>(value)).cast<double>();
    if (std::isnan(number)) {
      out << ".nan";
    } else if (std::isinf(number)) {
      out << (number > 0 ? ".inf" : "-.inf");
    } else {
      out << py::repr(py::float_(number)).cast<std::string>();  // shortest text that reads back exactly
    }
  } else if (py::isinstance<py::str>(value) || py::hasattr(value, "__fspath__")) {
    const py::object text = py::module_::import("os").attr("fspath")(value);
    if (!py::isinstance<py::str>(text)) throw InputError(where + ": expected a str path, found bytes");
    out << YAML::DoubleQuoted << text.cast<std::string>();
  } else if (py::isinstance(value, py::module_::import("collections.abc").attr("Mapping"))) {
    out << YAML::BeginMap;
    for (const py::handle item : py::reinterpret_borrow<py::object>(value).attr("items")()) {
      const py::tuple pair = py::reinterpret_borrow<py::tuple>(item);
      if (!py::isinstance<py::str>(pair[0])) {
        throw InputError(where + ": expected str keys, found " + py::repr(pair[0]).cast<std::string>());
      }
      const std::string key = pair[0].cast<std::string>();
      out << YAML::Key << key << YAML::Value;
      emit(out, pair[1], key_path.empty() ? key : key_path + "." + key);
    }
    out << YAML::EndMap;
  } else if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
    out << YAML::BeginSeq;
    for (const py::handle element : value) emit(out, element, key_path);
    out << YAML::EndSeq;
  } else {
    throw InputError(where + ": expected a dict, list, str, number, bool or None, found " +
                     py::str(py::type::of(value).attr("__name__")).cast<std::string>());
  }
}

}  // namespace

std::string job_yaml(const py::dict& job) {
  YAML::Emitter out;
  out.SetMapFormat(YAML::Block);
  out.SetSeqFormat(YAML::Block);
  emit(out, job, "");
  if (!out.good()) throw InputError("job: cannot be written as YAML: " + out.GetLastError());
  return std::string(out.c_str()) + "\n";
}

}  // namespace mimic::python
