#include "mimic/geometry/mesh_path.hpp"

#include <filesystem>
#include <string_view>

namespace mimic::geometry {

namespace fs = std::filesystem;

std::string resolve_mesh_path(const std::string& filename, const std::string& urdf_path,
                              const std::string& mesh_root) {
  const fs::path folder = fs::path(urdf_path).parent_path();
  constexpr std::string_view kPackage = "package://", kFile = "file://";
  if (filename.starts_with(kPackage)) {
    const std::string rest_with_name = filename.substr(kPackage.size());
    const auto slash = rest_with_name.find('/');
    const fs::path rest =
        slash == std::string::npos ? fs::path() : fs::path(rest_with_name.substr(slash + 1));
    if (!mesh_root.empty()) return (fs::path(mesh_root) / rest).lexically_normal().string();
    if (fs::exists(folder / rest)) return (folder / rest).lexically_normal().string();
    return (folder.parent_path() / rest).lexically_normal().string();
  }
  if (filename.starts_with(kFile)) return filename.substr(kFile.size());
  const fs::path path(filename);
  return (path.is_absolute() ? path : folder / path).lexically_normal().string();
}

}  // namespace mimic::geometry
