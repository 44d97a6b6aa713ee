// The meshes of a robot's links, in their bodies' frames: what a viewer draws (visual) and what the
// capsules of the collision model are fitted to (collision). Only <mesh> geometry is read; primitives
// (boxes, cylinders, spheres) are the collision model's own shapes.
#pragma once

#include <string>
#include <vector>

#include "mimic/geometry/mesh.hpp"
#include "mimic/model/model.hpp"
#include "mimic/model/robot_description.hpp"

namespace mimic::geometry {

enum class MeshUse { kVisual, kCollision };

struct LinkMesh {
  std::string link;  // URDF link
  int body = 0;      // Model body it moves with
  std::string file;  // the resolved mesh file (mesh_path.hpp)
  Mesh mesh;         // vertices in the body frame: URDF <origin> and scale applied
};

// Every <visual> or <collision> mesh of description.urdf's links, in model.frames order (a link of the
// description's collision.shapes included: the overrides replace shapes, not meshes). `model` must be
// loaded from that URDF. Throws ModelError naming a mesh file that cannot be read.
std::vector<LinkMesh> read_link_meshes(const model::Model& model, const model::RobotDescription& description,
                                       MeshUse use);

}  // namespace mimic::geometry
