#include "mimic/geometry/link_meshes.hpp"

#include <urdf_model/model.h>
#include <urdf_parser/urdf_parser.h>

#include "mimic/core/error.hpp"
#include "mimic/geometry/mesh_path.hpp"

namespace mimic::geometry {
namespace {

using spatial::SE3;
using spatial::Vec3;

SE3 to_se3(const urdf::Pose& pose) {
  const spatial::Quat q(pose.rotation.w, pose.rotation.x, pose.rotation.y, pose.rotation.z);
  return SE3(q.normalized().toRotationMatrix(), Vec3(pose.position.x, pose.position.y, pose.position.z));
}

void add_mesh(const model::RobotDescription& description, const model::Frame& frame,
              const urdf::GeometrySharedPtr& geometry, const urdf::Pose& origin, std::vector<LinkMesh>& out) {
  if (!geometry || geometry->type != urdf::Geometry::MESH) return;
  const auto& mesh = static_cast<const urdf::Mesh&>(*geometry);
  LinkMesh link;
  link.link = frame.name;
  link.body = frame.body;
  link.file = resolve_mesh_path(mesh.filename, description.urdf, description.mesh_root);
  link.mesh =
      read_mesh(link.file, Vec3(mesh.scale.x, mesh.scale.y, mesh.scale.z), frame.placement * to_se3(origin));
  out.push_back(std::move(link));
}

}  // namespace

std::vector<LinkMesh> read_link_meshes(const model::Model& model, const model::RobotDescription& description,
                                       MeshUse use) {
  const urdf::ModelInterfaceSharedPtr urdf = urdf::parseURDFFile(description.urdf);
  if (!urdf) throw ModelError(input_error_message(description.urdf, "", "not a valid URDF"));
  std::vector<LinkMesh> meshes;
  for (const model::Frame& frame : model.frames) {
    const urdf::LinkConstSharedPtr link = urdf->getLink(frame.name);
    if (!link) continue;  // an added frame
    if (use == MeshUse::kVisual) {
      for (const auto& visual : link->visual_array)
        if (visual) add_mesh(description, frame, visual->geometry, visual->origin, meshes);
    } else {
      for (const auto& collision : link->collision_array)
        if (collision) add_mesh(description, frame, collision->geometry, collision->origin, meshes);
    }
  }
  return meshes;
}

}  // namespace mimic::geometry
