// `mimic info CLIP --landmarks`: which joint or markers give each landmark, and how that was decided.
#include <algorithm>
#include <string>

#include "mimic/mocap/load.hpp"
#include "mimic/pipeline/describe.hpp"
#include "mimic/retarget/landmark_preset.hpp"

namespace mimic::pipeline {

void describe_landmarks(const std::string& path, std::string_view units, std::string_view up,
                        std::string_view preset, std::ostream& out, std::string_view units_option,
                        std::string_view up_option) {
  const mocap::Clip clip = mocap::load_clip(path, clip_load_options(units, up, units_option, up_option));
  const retarget::SelectedPreset selected =
      retarget::select_preset(clip, preset);  // InputError when none fits

  out << "file: " << path << "\n";
  out << "mapping: " << selected.preset.name;
  if (!selected.preset.description.empty()) out << " (" << selected.preset.description << ")";
  out << ", " << selected.match.resolved_count << " of " << retarget::kLandmarkCount << " landmarks\n";
  std::size_t width = 0;
  for (const auto key : retarget::landmark_keys()) width = std::max(width, key.size());
  std::vector<std::string> sources(retarget::kLandmarkCount);
  std::size_t source_width = 0;
  for (int i = 0; i < retarget::kLandmarkCount; ++i) {
    for (int k : selected.match.indices[static_cast<std::size_t>(i)]) {
      auto& s = sources[static_cast<std::size_t>(i)];
      s += (s.empty() ? "" : " + ") + (clip.is_skeleton()
                                           ? clip.skeleton().joints[static_cast<std::size_t>(k)].name
                                           : clip.markers().labels[static_cast<std::size_t>(k)]);
    }
    source_width = std::max(source_width, sources[static_cast<std::size_t>(i)].size());
  }
  for (int i = 0; i < retarget::kLandmarkCount; ++i) {
    const auto l = static_cast<retarget::Landmark>(i);
    const std::string key(retarget::to_string(l));
    const std::string& source = sources[static_cast<std::size_t>(i)];
    out << "  " << key << std::string(width - key.size() + 2, ' ');
    if (source.empty()) {
      out << "-" << (retarget::is_required(l) ? "  (required)" : "") << "\n";
      continue;
    }
    out << source << std::string(source_width - source.size() + 2, ' ')
        << selected.evidence[static_cast<std::size_t>(i)] << "\n";
  }
  for (const auto& note : selected.notes) out << "note: " << note << "\n";
}

}  // namespace mimic::pipeline
