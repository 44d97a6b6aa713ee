// mimic's error classes (core/error.hpp) as Python exceptions carrying the same one-line message:
//
//   mimic.Error(Exception)                  every error below
//   mimic.InputError(Error, ValueError)     a file, job key or argument value that is missing or malformed
//   mimic.UsageError(Error, ValueError)     an output path naming an input or another output
//   mimic.BudgetError(Error, ValueError)    a problem larger than the documented budget (bad input too)
//   mimic.ModelError(Error)                 an unusable robot model (URDF, unknown joint or frame)
//   mimic.InfeasibleError(Error)            a motion that cannot be made to satisfy the robot's limits
//   mimic.OutputError(Error, OSError)       an output file that could not be written
//
// The ValueError / OSError bases let scripts catch them as they catch Python's own errors of that kind.
#include <Python.h>

#include "bindings.hpp"
#include "mimic/core/error.hpp"

namespace py = pybind11;

namespace mimic::python {
namespace {

// The exception classes, created once by bind_errors and owned by the module (which holds a reference to
// each); static because pybind11's translators are plain function pointers.
PyObject* g_error = nullptr;
PyObject* g_input = nullptr;
PyObject* g_usage = nullptr;
PyObject* g_budget = nullptr;
PyObject* g_model = nullptr;
PyObject* g_infeasible = nullptr;
PyObject* g_output = nullptr;

// A new exception class mimic.<name> with `bases` (a tuple), added to the module.
PyObject* add_exception(py::module_& m, const char* name, py::tuple bases, const char* doc) {
  const std::string qualified = std::string("mimic.") + name;
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (type == nullptr) throw py::error_already_set();
  m.add_object(name, py::reinterpret_borrow<py::object>(type));
  return type;
}

}  // namespace

void bind_errors(py::module_& m) {
  const py::object value_error = py::reinterpret_borrow<py::object>(PyExc_ValueError);
  const py::object os_error = py::reinterpret_borrow<py::object>(PyExc_OSError);
  g_error = add_exception(m, "Error", py::make_tuple(py::reinterpret_borrow<py::object>(PyExc_Exception)),
                          "Base of every mimic error; str(e) is mimic's one-line message.");
  const py::object base = py::reinterpret_borrow<py::object>(g_error);
  g_input = add_exception(m, "InputError", py::make_tuple(base, value_error),
                          "A file, job key or argument that is missing or malformed (mimic exit code 3).");
  g_usage = add_exception(m, "UsageError", py::make_tuple(base, value_error),
                          "An output path that names an input or another output (exit code 2).");
  g_budget = add_exception(m, "BudgetError", py::make_tuple(base, value_error),
                           "A problem larger than the documented size budget (exit code 3).");
  g_model = add_exception(m, "ModelError", py::make_tuple(base),
                          "An unusable robot model: bad URDF, unknown joint or frame.");
  g_infeasible = add_exception(m, "InfeasibleError", py::make_tuple(base),
                               "The motion cannot satisfy the robot's limits (exit code 4).");
  g_output =
      add_exception(m, "OutputError", py::make_tuple(base, os_error), "An output file could not be written.");
  // Most derived first: every class above derives from mimic::Error.
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const InputError& e) {
      PyErr_SetString(g_input, e.what());
    } catch (const UsageError& e) {
      PyErr_SetString(g_usage, e.what());
    } catch (const BudgetError& e) {
      PyErr_SetString(g_budget, e.what());
    } catch (const ModelError& e) {
      PyErr_SetString(g_model, e.what());
    } catch (const InfeasibleError& e) {
      PyErr_SetString(g_infeasible, e.what());
    } catch (const OutputError& e) {
      PyErr_SetString(g_output, e.what());
    } catch (const Error& e) {
      PyErr_SetString(g_error, e.what());
    }
  });
}

}  // namespace mimic::python
