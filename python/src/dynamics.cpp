// Forward kinematics, centre of mass, RNEA and its analytic derivatives on numpy arrays.
//
// Inputs: float64 arrays are read in place through Eigen::Ref (no copy when contiguous; other dtypes and
// strides are converted once). Outputs: each result is a fresh Eigen object moved into numpy
// (pybind11/eigen.h wraps its buffer, no copy), so a result never changes under a later call: the robot's
// scratch memory is copied once into it, and that copy is the only one.
#include <pybind11/eigen.h>
#include <pybind11/numpy.h>

#include <memory>
#include <string>

#include "bindings.hpp"
#include "mimic/core/error.hpp"
#include "mimic/dynamics/com.hpp"
#include "mimic/dynamics/kinematics.hpp"
#include "mimic/dynamics/rnea.hpp"
#include "mimic/dynamics/rnea_derivatives.hpp"
#include "mimic/model/configuration.hpp"
#include "robot.hpp"

namespace py = pybind11;

namespace mimic::python {
namespace {

using Vector = Eigen::Ref<const Eigen::VectorXd>;

void check_state(const PyRobot& r, const Vector& q, const Vector& v, const Vector& a) {
  r.check_configuration(q);
  PyRobot::check_size(v, r.model().nv, "v");
  PyRobot::check_size(a, r.model().nv, "a");
}

// The frame's index, by name (ModelError naming the URDF for an unknown one) or by number.
int frame_index(const PyRobot& r, const py::object& frame) {
  if (py::isinstance<py::str>(frame)) return r.model().frame_index(frame.cast<std::string>());
  const int index = frame.cast<int>();
  if (index < 0 || index >= static_cast<int>(r.model().frames.size())) {
    throw InputError("frame: expected a frame name or an index in [0, " +
                     std::to_string(r.model().frames.size()) + "), found " + std::to_string(index));
  }
  return index;
}

}  // namespace

void bind_dynamics(py::module_& m) {
  m.def(
      "frame_placement",
      [](PyRobot& r, const Vector& q, const py::object& frame) -> Eigen::Matrix4d {
        r.check_configuration(q);
        const int f = frame_index(r, frame);
        dynamics::forward_kinematics(r.model(), r.data, q);
        return dynamics::update_frame_placement(r.model(), r.data, f).to_homogeneous();
      },
      py::arg("robot"), py::arg("q"), py::arg("frame"), R"doc(
Placement of one frame in the world for configuration q (nq,).

frame: a name of robot.frames (a URDF link, e.g. "r_sole") or its index.
Returns a (4, 4) homogeneous matrix [[R, p], [0, 1]]: R (3, 3) the frame's axes in world coordinates, p (3,)
its origin, m.)doc");
  m.def(
      "frame_placements",
      [](PyRobot& r, const Vector& q) {
        r.check_configuration(q);
        dynamics::forward_kinematics(r.model(), r.data, q);
        dynamics::update_frame_placements(r.model(), r.data);
        const auto count = static_cast<py::ssize_t>(r.data.oMf.size());
        py::array_t<double> out({count, py::ssize_t{4}, py::ssize_t{4}});
        auto view = out.mutable_unchecked<3>();
        for (py::ssize_t f = 0; f < count; ++f) {
          const Eigen::Matrix4d h = r.data.oMf[f].to_homogeneous();
          for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j) view(f, i, j) = h(i, j);
        }
        return out;
      },
      py::arg("robot"), py::arg("q"), R"doc(
Placements of every frame in the world for q (nq,): an array (len(robot.frames), 4, 4) of homogeneous
matrices in the order of robot.frames (metres).)doc");
  m.def(
      "center_of_mass",
      [](PyRobot& r, const Vector& q) -> Eigen::Vector3d {
        r.check_configuration(q);
        return dynamics::center_of_mass(r.model(), r.data, q);
      },
      py::arg("robot"), py::arg("q"), "Centre of mass (3,) of the whole robot in the world for q (nq,), m.");
  m.def(
      "rnea",
      [](PyRobot& r, const Vector& q, const Vector& v, const Vector& a) -> Eigen::VectorXd {
        check_state(r, q, v, a);
        return dynamics::rnea(r.model(), r.data, q, v, a);
      },
      py::arg("robot"), py::arg("q"), py::arg("v"), py::arg("a"), R"doc(
Inverse dynamics (recursive Newton-Euler) without contact forces: tau (nv,) = M(q) a + C(q, v) v + g(q).

q (nq,), v (nv,) in rad/s and m/s, a (nv,) in rad/s^2 and m/s^2 (layout: see mimic.Robot). tau = [base
wrench: force (3, N) and moment about the base origin (3, N m), in the base frame; joint torques (nj, N m)].
With v = a = 0 it is the gravity torque.)doc");
  m.def(
      "rnea_derivatives",
      [](PyRobot& r, const Vector& q, const Vector& v, const Vector& a) {
        check_state(r, q, v, a);
        dynamics::compute_rnea_derivatives(r.model(), r.derivatives, q, v, a);
        return py::make_tuple(Eigen::MatrixXd(r.derivatives.dtau_dq), Eigen::MatrixXd(r.derivatives.dtau_dv),
                              Eigen::MatrixXd(r.derivatives.dtau_da));
      },
      py::arg("robot"), py::arg("q"), py::arg("v"), py::arg("a"), R"doc(
Analytic derivatives of mimic.rnea: (dtau_dq, dtau_dv, M), each (nv, nv).

dtau_dq is taken in the tangent space of q: column k is d/de rnea(integrate(q, e * e_k), v, a) at e = 0
(the base columns are a displacement [dp; dtheta] in the base frame, the joint columns the joint values).
dtau_dv is d tau / d v and M = d tau / d a the joint-space inertia matrix (symmetric positive
definite).)doc");
  m.def(
      "integrate",
      [](const PyRobot& r, const Vector& q, const Vector& dv) -> Eigen::VectorXd {
        r.check_configuration(q);
        PyRobot::check_size(dv, r.model().nv, "dv");
        return model::integrate(r.model(), q, dv);
      },
      py::arg("robot"), py::arg("q"), py::arg("dv"), R"doc(
q (nq,) moved by the tangent vector dv (nv,) for unit time: the base by exp6(dv[:6]) in the base frame,
the joints by dv[6:]. Returns the new configuration (nq,), its base quaternion unit.)doc");
  m.def(
      "difference",
      [](const PyRobot& r, const Vector& q0, const Vector& q1) -> Eigen::VectorXd {
        r.check_configuration(q0, "q0");
        r.check_configuration(q1, "q1");
        return model::difference(r.model(), q0, q1);
      },
      py::arg("robot"), py::arg("q0"), py::arg("q1"),
      "The tangent vector dv (nv,) with integrate(robot, q0, dv) == q1.");
}

}  // namespace mimic::python
