#include "mimic/geometry/mesh.hpp"

#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <assimp/Importer.hpp>
#include <cmath>
#include <vector>

#include "mimic/core/error.hpp"

namespace mimic::geometry {
namespace {

using spatial::Vec3;

void collect(const aiScene& scene, const aiNode& node, const aiMatrix4x4& parent, std::vector<Vec3>& vertices,
             std::vector<Eigen::Vector3i>& triangles) {
  const aiMatrix4x4 transform = parent * node.mTransformation;
  for (unsigned k = 0; k < node.mNumMeshes; ++k) {
    const aiMesh& mesh = *scene.mMeshes[node.mMeshes[k]];
    const int first = static_cast<int>(vertices.size());
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
      const aiVector3D p = transform * mesh.mVertices[v];
      vertices.emplace_back(p.x, p.y, p.z);
    }
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
      const aiFace& face = mesh.mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines left by the triangulation
      triangles.emplace_back(first + static_cast<int>(face.mIndices[0]),
                             first + static_cast<int>(face.mIndices[1]),
                             first + static_cast<int>(face.mIndices[2]));
    }
  }
  for (unsigned c = 0; c < node.mNumChildren; ++c)
    collect(scene, *node.mChildren[c], transform, vertices, triangles);
}

}  // namespace

Mesh read_mesh(const std::string& path, const Vec3& scale, const spatial::SE3& placement) {
  Assimp::Importer importer;
  importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, true);
  const aiScene* scene = importer.ReadFile(
      path, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices | aiProcess_SortByPType);
  if (!scene || !scene->mRootNode)
    throw ModelError(input_error_message(
        path, "", "cannot read the mesh (assimp: " + std::string(importer.GetErrorString()) + ")"));
  std::vector<Vec3> vertices;
  std::vector<Eigen::Vector3i> triangles;
  collect(*scene, *scene->mRootNode, aiMatrix4x4(), vertices, triangles);
  if (triangles.empty()) throw ModelError(input_error_message(path, "", "the mesh has no triangle"));
  Mesh mesh;
  mesh.vertices.resize(3, static_cast<Eigen::Index>(vertices.size()));
  for (std::size_t v = 0; v < vertices.size(); ++v)
    mesh.vertices.col(static_cast<Eigen::Index>(v)) = placement.act(vertices[v].cwiseProduct(scale));
  mesh.triangles.resize(3, static_cast<Eigen::Index>(triangles.size()));
  for (std::size_t t = 0; t < triangles.size(); ++t)
    mesh.triangles.col(static_cast<Eigen::Index>(t)) = triangles[t];
  return mesh;
}

double enclosed_volume(const Mesh& mesh) {
  double six_volume = 0.0;
  for (Eigen::Index t = 0; t < mesh.triangles.cols(); ++t) {
    const Vec3 a = mesh.vertices.col(mesh.triangles(0, t));
    const Vec3 b = mesh.vertices.col(mesh.triangles(1, t));
    const Vec3 c = mesh.vertices.col(mesh.triangles(2, t));
    six_volume += a.dot(b.cross(c));
  }
  return std::abs(six_volume) / 6.0;
}

}  // namespace mimic::geometry
