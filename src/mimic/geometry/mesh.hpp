// Triangle meshes of a robot's links, read with assimp (Debian's libassimp-dev): binary or ASCII STL
// (G1), COLLADA .dae (JVRC-1) and every other format assimp reads. They are the source of the capsules
// fitted to a link's <collision> mesh (capsule_fit.hpp) and what a viewer draws.
//
// Frames and units: the vertices are returned in the frame the caller asks for (the link's or its body's),
// in metres: each vertex of the file is taken through its node transforms (which carry a COLLADA file's
// <unit meter=...> scale, applied by assimp), scaled component-wise by the URDF's `scale`, then placed by
// `placement` (the URDF <origin> composed with the link's place in its body). A COLLADA file's <up_axis> is
// NOT turned into a rotation (assimp's default turns Z_UP files into Y_UP): URDF meshes are drawn in their
// own axes by ROS tools, and the link frame is z-up already (checked on JVRC-1's shank, tests/geometry).
#pragma once

#include <Eigen/Core>
#include <string>

#include "mimic/spatial/se3.hpp"

namespace mimic::geometry {

struct Mesh {
  Eigen::Matrix3Xd vertices;   // 3 x V, metres
  Eigen::Matrix3Xi triangles;  // 3 x T vertex indices, counter-clockwise seen from outside when the file is
};

// Reads every mesh of the file at `path` into one Mesh (vertices shared between faces are merged). Throws
// ModelError naming the file when assimp cannot read it or it holds no triangle.
Mesh read_mesh(const std::string& path, const spatial::Vec3& scale = spatial::Vec3::Ones(),
               const spatial::SE3& placement = spatial::SE3::Identity());

// The volume enclosed by a closed mesh (divergence theorem, absolute value; m^3). An open mesh gives the
// volume of the cone over its triangles from the origin, which a caller should not rely on.
double enclosed_volume(const Mesh& mesh);

}  // namespace mimic::geometry
