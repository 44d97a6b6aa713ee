// mimic.load_robot and the Robot class: the model's sizes, names, limits, frames, masses and nominal pose.
// Array attributes are read-only numpy views of the C++ model (no copy); they live as long as the Robot.
#include "robot.hpp"

#include <pybind11/eigen.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cmath>
#include <memory>
#include <optional>

#include "bindings.hpp"
#include "mimic/core/error.hpp"

namespace py = pybind11;

namespace mimic::python {

PyRobot::PyRobot(pipeline::Robot loaded)
    : robot(std::move(loaded)),
      data(robot.model),
      derivatives(robot.model),
      nominal_q(robot.description.nominal_q(robot.model)),
      masses(robot.model.nbodies) {
  for (int b = 0; b < robot.model.nbodies; ++b) masses[b] = robot.model.inertias[b].mass;
}

void PyRobot::check_size(const Eigen::Ref<const Eigen::VectorXd>& vector, int size, const char* what) {
  if (vector.size() != size) {
    throw InputError(std::string(what) + ": expected " + std::to_string(size) + " values, found " +
                     std::to_string(vector.size()));
  }
}

void PyRobot::check_configuration(const Eigen::Ref<const Eigen::VectorXd>& q, const char* what) const {
  check_size(q, model().nq, what);
  if (!q.allFinite()) throw InputError(std::string(what) + ": expected finite values");
  if (model().has_free_flyer()) {
    const double norm = q.segment<4>(3).norm();
    if (std::abs(norm - 1.0) > 1e-6) {
      throw InputError(std::string(what) + ": the base quaternion q[3:7] (x y z w) has norm " +
                       std::to_string(norm) + ", expected 1 (use mimic.integrate to move a configuration)");
    }
  }
}

void bind_robot(py::module_& m) {
  py::class_<PyRobot, std::shared_ptr<PyRobot>> robot(m, "Robot", R"doc(
A robot loaded by mimic.load_robot: its URDF model (free-flyer base, joints in the description's
joint_order) and its description (config/robots/<robot>.yaml).

Configuration layout (docs/CONTRACTS.md): q (nq,) = [base position (3, m); base quaternion x y z w (4);
joint values (nj, rad)]; v and a (nv,) = [base linear, base angular velocity in the BASE frame (6); joint
velocities (nj, rad/s)]. Array attributes are read-only views of the C++ model (no copy).)doc");
  robot
      .def_property_readonly(
          "name", [](const PyRobot& r) { return r.model().name; }, "URDF robot name")
      .def_property_readonly(
          "urdf", [](const PyRobot& r) { return r.robot.description.urdf; },
          "path of the URDF the model was loaded from")
      .def_property_readonly(
          "config", [](const PyRobot& r) { return r.robot.description.source_path; },
          "path of the robot description YAML")
      .def_property_readonly(
          "nq", [](const PyRobot& r) { return r.model().nq; }, "configuration size")
      .def_property_readonly(
          "nv", [](const PyRobot& r) { return r.model().nv; }, "velocity size")
      .def_property_readonly(
          "nj", [](const PyRobot& r) { return r.model().nj; }, "number of 1-DoF joints")
      .def_property_readonly(
          "joint_names", [](const PyRobot& r) { return r.model().joint_names; },
          "joint names in model order: joint j is q[nq - nj + j], v[nv - nj + j] and "
          "column j of a .pos")
      .def_property_readonly(
          "lower_limit", [](const PyRobot& r) -> const Eigen::VectorXd& { return r.model().lower_limit; },
          py::return_value_policy::reference_internal, "(nj,) lower joint position limits, rad")
      .def_property_readonly(
          "upper_limit", [](const PyRobot& r) -> const Eigen::VectorXd& { return r.model().upper_limit; },
          py::return_value_policy::reference_internal, "(nj,) upper joint position limits, rad")
      .def_property_readonly(
          "velocity_limit",
          [](const PyRobot& r) -> const Eigen::VectorXd& { return r.model().velocity_limit; },
          py::return_value_policy::reference_internal, "(nj,) joint velocity limits, rad/s (URDF)")
      .def_property_readonly(
          "torque_limit", [](const PyRobot& r) -> const Eigen::VectorXd& { return r.model().effort_limit; },
          py::return_value_policy::reference_internal, "(nj,) joint torque limits, N m (URDF effort)")
      .def_property_readonly(
          "frames",
          [](const PyRobot& r) {
            std::vector<std::string> names;
            for (const model::Frame& frame : r.model().frames) names.push_back(frame.name);
            return names;
          },
          "names of the frames (one per URDF link), the order of frame_placements()")
      .def_property_readonly(
          "bodies", [](const PyRobot& r) { return r.model().body_names; },
          "names of the moving bodies: body 0 is the root, body j + 1 is moved by joint j")
      .def_property_readonly(
          "masses", [](const PyRobot& r) -> const Eigen::VectorXd& { return r.masses; },
          py::return_value_policy::reference_internal,
          "(nbodies,) mass of each body, kg (links fixed to a body are merged into it)")
      .def_property_readonly(
          "total_mass", [](const PyRobot& r) { return r.model().total_mass(); }, "kg")
      .def_property_readonly(
          "gravity", [](const PyRobot& r) -> const spatial::Vec3& { return r.model().gravity; },
          py::return_value_policy::reference_internal, "(3,) gravity in the world frame, m/s^2")
      .def_property_readonly(
          "nominal_q", [](const PyRobot& r) -> const Eigen::VectorXd& { return r.nominal_q; },
          py::return_value_policy::reference_internal,
          "(nq,) the description's nominal pose (HRP-2: half-sitting), base upright")
      .def_property_readonly(
          "operational_frames",
          [](const PyRobot& r) {
            const model::OperationalFrames& f = r.robot.description.frames;
            return py::dict(py::arg("right_sole") = f.right_sole, py::arg("left_sole") = f.left_sole,
                            py::arg("right_gripper") = f.right_gripper,
                            py::arg("left_gripper") = f.left_gripper, py::arg("gaze") = f.gaze);
          },
          "the description's soles, grippers and gaze frame names")
      .def_property_readonly(
          "groups",
          [](const PyRobot& r) {
            const model::JointGroups& g = r.robot.description.groups;
            return py::dict(py::arg("right_leg") = g.right_leg, py::arg("left_leg") = g.left_leg,
                            py::arg("torso") = g.torso, py::arg("neck") = g.neck,
                            py::arg("right_arm") = g.right_arm.joints,
                            py::arg("left_arm") = g.left_arm.joints);
          },
          "the description's joint groups (each a chain from the root outwards)")
      .def("__repr__", [](const PyRobot& r) {
        return "<mimic.Robot " + r.model().name + ": nq=" + std::to_string(r.model().nq) +
               ", nv=" + std::to_string(r.model().nv) + ", " + std::to_string(r.model().frames.size()) +
               " frames>";
      });

  m.def(
      "load_robot",
      [](const std::optional<std::filesystem::path>& config,
         const std::optional<std::filesystem::path>& urdf) {
        io::RobotSettings settings;
        if (config) settings.config = *config;
        if (urdf) settings.model = *urdf;
        return std::make_shared<PyRobot>(pipeline::load_robot(settings));
      },
      py::arg("config") = py::none(), py::arg("model") = py::none(), R"doc(
Loads a robot as the commands do (the job keys robot.config and robot.model).

config: robot description YAML (default: the shipped config/robots/hrp2.yaml).
model: URDF (default: the one the description names, models/hrp2.urdf for HRP-2).
Raises mimic.InputError for a malformed description, mimic.ModelError for an unusable URDF.)doc");
}

}  // namespace mimic::python
