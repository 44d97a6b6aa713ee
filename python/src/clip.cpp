// mimic.load_clip and the Clip class: a BVH skeleton or C3D marker clip as mimic reads it (metres,
// radians, z up, x forward: mocap/clip.hpp), with its names, frames and rate. The frame arrays are
// read-only numpy views of the C++ clip (no copy), alive as long as the Clip.
#include "mimic/mocap/clip.hpp"

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <limits>
#include <memory>
#include <string>

#include "bindings.hpp"
#include "mimic/core/error.hpp"
#include "mimic/mocap/load.hpp"

namespace py = pybind11;

namespace mimic::python {
namespace {

using mocap::Clip;

// A read-only view of `count` doubles at `data` with `shape`, owned by the Python object `owner`.
py::array view_of(const double* data, std::vector<py::ssize_t> shape, const py::object& owner) {
  py::array array(py::dtype::of<double>(), std::move(shape), {}, data, owner);
  py::detail::array_proxy(array.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return array;
}

// World positions (frames, joints, 3) of every skeleton joint, m, by the clip's forward kinematics.
py::array_t<double> skeleton_positions(const mocap::SkeletonClip& skeleton) {
  const auto frames = static_cast<py::ssize_t>(skeleton.frame_count());
  const auto joints = static_cast<py::ssize_t>(skeleton.joints.size());
  py::array_t<double> out({frames, joints, py::ssize_t{3}});
  auto view = out.mutable_unchecked<3>();
  std::vector<Eigen::Isometry3d> transforms;
  for (py::ssize_t f = 0; f < frames; ++f) {
    skeleton.global_transforms(static_cast<int>(f), transforms);
    for (py::ssize_t j = 0; j < joints; ++j)
      for (int k = 0; k < 3; ++k) view(f, j, k) = transforms[j].translation()[k];
  }
  return out;
}

}  // namespace

void bind_clip(py::module_& m) {
  py::class_<Clip, std::shared_ptr<Clip>> clip(m, "Clip", R"doc(
A motion-capture clip read by mimic.load_clip, converted to mimic's frame: metres, radians, right-handed,
z up, x forward (where the facing direction can be told).

kind "BVH": a skeleton; names are its joints (End Sites as "<parent>_End"), frames the channel values
(frames, channels), positions the joints' world positions (frames, joints, 3).
kind "C3D": labelled markers; names are the labels (subject prefix removed), frames and positions the marker
positions (frames, markers, 3), NaN where a marker is missing.)doc");
  clip.def_property_readonly("kind", [](const Clip& c) { return c.is_skeleton() ? "BVH" : "C3D"; })
      .def_property_readonly(
          "source", [](const Clip& c) { return c.source; }, "the file read")
      .def_property_readonly("rate", &Clip::rate, "frames per second")
      .def_property_readonly("duration", &Clip::duration, "s (frames / rate)")
      .def_property_readonly("frame_count", &Clip::frame_count)
      .def_property_readonly(
          "unit", [](const Clip& c) { return std::string(mocap::to_string(c.source_unit)); },
          "length unit of the file (m, dm, cm, mm, inch, cmu)")
      .def_property_readonly(
          "up_axis", [](const Clip& c) { return mocap::to_string(c.source_up); },
          "the file's up axis, mapped to +z (e.g. '+y')")
      .def_property_readonly(
          "names",
          [](const Clip& c) {
            if (c.is_markers()) return c.markers().labels;
            std::vector<std::string> names;
            for (const mocap::Joint& joint : c.skeleton().joints) names.push_back(joint.name);
            return names;
          },
          "joint names (BVH) or marker labels (C3D)")
      .def_property_readonly(
          "parents",
          [](const Clip& c) -> py::object {
            if (c.is_markers()) return py::none();
            std::vector<int> parents;
            for (const mocap::Joint& joint : c.skeleton().joints) parents.push_back(joint.parent);
            return py::cast(parents);
          },
          "BVH: each joint's parent index (-1 for the root); C3D: None")
      .def_property_readonly(
          "channels",
          [](const Clip& c) -> py::object {
            if (c.is_markers()) return py::none();
            py::list channels;
            for (const mocap::Joint& joint : c.skeleton().joints) {
              for (const mocap::ChannelType type : joint.channels)
                channels.append(py::make_tuple(joint.name, std::string(mocap::to_string(type))));
            }
            return channels;
          },
          "BVH: (joint, channel) of each column of frames, e.g. ('Hips', 'Zrotation'), the axis in mimic's "
          "frame (the file's axes converted); C3D: None")
      .def_property_readonly(
          "frames",
          [](const py::object& self) -> py::array {
            const Clip& c = self.cast<const Clip&>();
            if (c.is_skeleton()) {
              const mocap::ChannelMatrix& values = c.skeleton().values;  // row-major: frames x channels
              return view_of(values.data(), {values.rows(), values.cols()}, self);
            }
            const mocap::MarkerClip& markers = c.markers();
            // Eigen::Vector3d holds 3 packed doubles, so the frame-major vector is one (F, M, 3) block.
            static_assert(sizeof(Eigen::Vector3d) == 3 * sizeof(double));
            return view_of(markers.positions.empty() ? nullptr : markers.positions.front().data(),
                           {markers.frame_count(), markers.marker_count(), 3}, self);
          },
          "BVH: channel values (frames, channels), m and rad; C3D: marker positions (frames, markers, 3), m "
          "(NaN where missing). A read-only view, no copy.")
      .def_property_readonly(
          "positions",
          [](const py::object& self) -> py::array {
            const Clip& c = self.cast<const Clip&>();
            if (c.is_skeleton()) return skeleton_positions(c.skeleton());
            return py::array(self.attr("frames"));
          },
          "world positions (frames, joints or markers, 3), m")
      .def("__repr__", [](const Clip& c) {
        return "<mimic.Clip " + std::string(c.is_skeleton() ? "BVH" : "C3D") + " " + c.source.string() +
               ": " + std::to_string(c.frame_count()) + " frames at " + std::to_string(c.rate()) + " Hz>";
      });

  m.def(
      "load_clip",
      [](const std::filesystem::path& path, const std::string& units, const std::string& up,
         bool face_forward, int gap_fill_frames) {
        mocap::LoadOptions options;
        options.unit = mocap::parse_unit_option(units, "units");
        options.up = mocap::parse_up_option(up, "up");
        options.face_forward = face_forward;
        if (gap_fill_frames < 0) throw InputError("gap_fill_frames: expected a number >= 0");
        options.max_gap_frames = gap_fill_frames;
        return std::make_shared<Clip>(mocap::load_clip(path, options));
      },
      py::arg("path"), py::arg("units") = "auto", py::arg("up") = "auto", py::arg("face_forward") = true,
      py::arg("gap_fill_frames") = 10, R"doc(
Reads a .bvh or .c3d clip as `mimic retarget` does (the job's mocap.* keys).

units: auto | m | dm | cm | mm | inch | cmu (auto: from the skeleton's height or C3D POINT:UNITS).
up: auto | x | y | z | +y | -z ... (the file's up axis). face_forward: turn the subject to face +x at frame
0. gap_fill_frames: longest marker gap (frames) filled by interpolation.
Raises mimic.InputError "file:line N: ..." for a file that cannot be read.)doc");
}

}  // namespace mimic::python
