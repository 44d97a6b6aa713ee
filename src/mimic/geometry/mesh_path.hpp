// Where the file of a URDF <mesh filename="..."> is.
//
//  * package://NAME/REST: ROS resolves NAME through its package index, which mimic does not have. mimic
//    reads REST under `mesh_root` when the robot description gives one (key mesh_root), else under the
//    URDF's folder when REST exists there, else under that folder's parent: a robot package keeps its
//    meshes/ next to the URDF (G1) or next to the URDF's urdf/ folder (JVRC-1:
//    jvrc1/urdf/jvrc1.urdf -> jvrc1/meshes/). NAME itself is not used;
//  * file:///ABS: ABS;
//  * any other relative path: under the URDF's folder (G1's meshes/pelvis.STL); an absolute one as it is.
#pragma once

#include <string>

namespace mimic::geometry {

std::string resolve_mesh_path(const std::string& filename, const std::string& urdf_path,
                              const std::string& mesh_root = {});

}  // namespace mimic::geometry
