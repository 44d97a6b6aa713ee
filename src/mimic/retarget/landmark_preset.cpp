#include "mimic/retarget/landmark_preset.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "mimic/core/data_dir.hpp"
#include "mimic/core/error.hpp"
#include "mimic/core/strict_yaml.hpp"
#include "mimic/retarget/marker_mapping.hpp"
#include "mimic/retarget/skeleton_mapping.hpp"

namespace mimic::retarget {

namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// "mixamorig:LeftArm" -> "LeftArm", "Character1|Hips" -> "Hips": exporters put a namespace in front.
std::string_view without_namespace(std::string_view name) {
  const auto cut = name.find_last_of(":|");
  return cut == std::string_view::npos ? name : name.substr(cut + 1);
}

// The joints or markers of one landmark: a name or a list of names.
std::vector<std::string> read_names(const core::StrictMapping& landmarks, std::string_view key) {
  const YAML::Node& value = landmarks.node(key);
  std::vector<std::string> names;
  if (value.IsScalar()) {
    names.push_back(value.Scalar());
  } else if (value.IsSequence()) {
    for (const auto& item : value) {
      if (!item.IsScalar()) {
        landmarks.fail(key, "expected a joint or marker name, found " + core::describe_yaml_value(item) +
                                " in the list");
      }
      names.push_back(item.Scalar());
    }
  } else {
    landmarks.fail(key, "expected a name or a list of names, found " + core::describe_yaml_value(value));
  }
  if (names.empty()) landmarks.fail(key, "expected a name or a list of names, found an empty list");
  for (const auto& n : names) {
    if (n.empty()) landmarks.fail(key, "expected a joint or marker name, found an empty name");
  }
  return names;
}

int find_joint(const mocap::SkeletonClip& skeleton, const std::string& name) {
  if (const int j = skeleton.joint_index(name); j >= 0) return j;
  const std::string wanted = lower(name);
  for (std::size_t j = 0; j < skeleton.joints.size(); ++j) {
    if (lower(skeleton.joints[j].name) == wanted) return static_cast<int>(j);
  }
  for (std::size_t j = 0; j < skeleton.joints.size(); ++j) {
    if (lower(without_namespace(skeleton.joints[j].name)) == wanted) return static_cast<int>(j);
  }
  return -1;
}

std::vector<int> resolve(const LandmarkPreset& preset, const mocap::Clip& clip, Landmark l) {
  const auto& names = preset.sources[static_cast<std::size_t>(index(l))];
  if (names.empty()) return {};
  if (preset.kind == PresetKind::kSkeleton) {
    for (const auto& name : names) {
      if (const int j = find_joint(clip.skeleton(), name); j >= 0) return {j};
    }
    return {};
  }
  std::vector<int> markers;
  for (const auto& name : names) {
    const int m = clip.markers().marker_index(name);
    if (m < 0) return {};  // a centroid of fewer markers would be a different point
    markers.push_back(m);
  }
  return markers;
}

PresetKind kind_of(const mocap::Clip& clip) {
  return clip.is_skeleton() ? PresetKind::kSkeleton : PresetKind::kMarkers;
}

std::string clip_names(const mocap::Clip& clip) {
  std::vector<std::string> names;
  if (clip.is_skeleton()) {
    for (const auto& j : clip.skeleton().joints) {
      if (!j.end_site) names.push_back(j.name);
    }
  } else {
    names = clip.markers().labels;
  }
  constexpr std::size_t kShown = 80;
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < kShown; ++i) out += (i ? ", " : "") + names[i];
  if (names.size() > kShown) out += ", ... (" + std::to_string(names.size()) + " in all)";
  return out;
}

std::string describe_missing(const LandmarkPreset& preset, const PresetMatch& match) {
  std::string out;
  for (std::size_t i = 0; i < match.missing_required.size(); ++i) {
    const Landmark l = match.missing_required[i];
    const auto& names = preset.sources[static_cast<std::size_t>(index(l))];
    out += (i ? "; " : "") + std::string(to_string(l));
    if (names.empty()) {
      out += " (not mapped by the preset)";
    } else {
      std::string list;
      for (std::size_t k = 0; k < names.size(); ++k)
        list += (k ? (preset.kind == PresetKind::kSkeleton ? " or " : " + ") : "") + names[k];
      out += " (looked for " + list + ")";
    }
  }
  return out;
}

// A preset's evidence: the name it listed that the clip has.
SelectedPreset with_evidence(SelectedPreset selected, const mocap::Clip& clip) {
  for (int i = 0; i < kLandmarkCount; ++i) {
    const auto& idx = selected.match.indices[static_cast<std::size_t>(i)];
    if (idx.empty()) continue;
    std::string names;
    for (int k : idx) {
      names += (names.empty() ? "" : " + ") + (clip.is_skeleton()
                                                   ? clip.skeleton().joints[static_cast<std::size_t>(k)].name
                                                   : clip.markers().labels[static_cast<std::size_t>(k)]);
    }
    selected.evidence[static_cast<std::size_t>(i)] = "preset '" + selected.preset.name + "' lists " + names;
  }
  return selected;
}

bool looks_like_file(std::string_view text) {
  const std::string t = lower(text);
  return std::filesystem::exists(std::filesystem::path(text)) || t.ends_with(".yaml") ||
         t.ends_with(".yml") || t.find('/') != std::string::npos;
}

}  // namespace

std::string_view to_string(PresetKind kind) { return kind == PresetKind::kSkeleton ? "skeleton" : "markers"; }

LandmarkPreset parse_landmark_preset(std::string_view yaml, const std::string& file_name) {
  core::YamlDocument document(yaml, file_name);
  const core::StrictMapping top(document, document.root(), "", 1,
                                {"name", "kind", "description", "landmarks"});
  for (const char* key : {"name", "kind", "landmarks"}) top.require(key);

  LandmarkPreset preset;
  top.read("name", preset.name);
  if (preset.name.empty()) top.fail("name", "expected a word, found an empty name");
  std::string kind;
  top.read("kind", kind);
  if (kind == "skeleton") {
    preset.kind = PresetKind::kSkeleton;
  } else if (kind == "markers") {
    preset.kind = PresetKind::kMarkers;
  } else {
    top.fail("kind", "expected skeleton or markers, found '" + kind + "'");
  }
  top.read("description", preset.description);
  const core::StrictMapping landmarks(document, top.node("landmarks"), top.key_path("landmarks"),
                                      top.line("landmarks"), landmark_keys());
  for (int i = 0; i < kLandmarkCount; ++i) {
    const std::string_view key = to_string(static_cast<Landmark>(i));
    if (landmarks.has(key)) preset.sources[static_cast<std::size_t>(i)] = read_names(landmarks, key);
  }
  return preset;
}

LandmarkPreset load_landmark_preset(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(input_error_message(path.string(), "", "cannot open the landmark preset"));
  std::ostringstream text;
  text << in.rdbuf();
  LandmarkPreset preset = parse_landmark_preset(text.str(), path.string());
  preset.source = path;
  return preset;
}

std::vector<std::filesystem::path> preset_directories(PresetKind kind) {
  const char* sub = kind == PresetKind::kSkeleton ? "skeletons" : "markersets";
  std::vector<std::filesystem::path> candidates;
  if (const char* env = std::getenv("MIMIC_CONFIG_DIR"); env && *env)
    candidates.push_back(std::filesystem::path(env) / sub);
  candidates.push_back(core::data_dir() / "config" / sub);
  std::vector<std::filesystem::path> out;
  for (const auto& dir : candidates) {
    std::error_code ec;
    if (std::filesystem::is_directory(dir, ec)) out.push_back(dir);
  }
  return out;
}

std::vector<LandmarkPreset> shipped_presets(PresetKind kind) {
  std::vector<LandmarkPreset> presets;
  std::set<std::string> names;
  for (const auto& dir : preset_directories(kind)) {
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      const auto ext = lower(entry.path().extension().string());
      if (entry.is_regular_file() && (ext == ".yaml" || ext == ".yml")) files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      LandmarkPreset preset = load_landmark_preset(file);
      if (preset.kind != kind) {
        throw InputError(input_error_message(file.string(), "",
                                             "a " + std::string(to_string(preset.kind)) +
                                                 " preset in the folder of " + std::string(to_string(kind)) +
                                                 " presets"));
      }
      if (names.insert(preset.name).second) presets.push_back(std::move(preset));
    }
  }
  return presets;
}

void PresetMatch::count() {
  resolved_count = 0;
  missing_required.clear();
  for (int i = 0; i < kLandmarkCount; ++i) {
    const auto l = static_cast<Landmark>(i);
    if (resolved(l)) {
      ++resolved_count;
    } else if (is_required(l)) {
      missing_required.push_back(l);
    }
  }
}

PresetMatch match_preset(const LandmarkPreset& preset, const mocap::Clip& clip) {
  PresetMatch match;
  if (preset.kind == kind_of(clip)) {
    for (int i = 0; i < kLandmarkCount; ++i)
      match.indices[static_cast<std::size_t>(i)] = resolve(preset, clip, static_cast<Landmark>(i));
  }
  match.count();
  return match;
}

SelectedPreset select_preset(const mocap::Clip& clip, std::string_view name_or_file) {
  const PresetKind kind = kind_of(clip);
  const std::string clip_name = clip.source.string();
  const char* what = kind == PresetKind::kSkeleton ? "joints" : "markers";

  auto check = [&](LandmarkPreset preset) {
    if (preset.kind != kind) {
      throw InputError(
          input_error_message(clip_name, "",
                              "preset '" + preset.name + "' is a " + std::string(to_string(preset.kind)) +
                                  " preset but the clip is a " + std::string(to_string(kind)) + " clip"));
    }
    PresetMatch match = match_preset(preset, clip);
    if (!match.usable()) {
      throw InputError(input_error_message(
          clip_name, "",
          "preset '" + preset.name + "' lacks landmarks needed for retargeting: " +
              describe_missing(preset, match) + ". The clip's " + what + ": " + clip_names(clip)));
    }
    return with_evidence(SelectedPreset{std::move(preset), std::move(match), {}, {}}, clip);
  };

  if (name_or_file == "automatic") {
    // The mapping found from the skeleton itself, even when a shipped preset would fit.
    AutomaticMapping automatic = kind == PresetKind::kSkeleton ? map_skeleton(clip) : map_markers(clip);
    if (automatic.found) return std::move(automatic.selected);
    throw InputError(input_error_message(
        clip_name, "", automatic.failure + ". The clip's " + what + ": " + clip_names(clip)));
  }
  if (!name_or_file.empty()) {
    if (looks_like_file(name_or_file))
      return check(load_landmark_preset(std::filesystem::path(name_or_file)));
    std::string known;
    for (PresetKind k : {PresetKind::kSkeleton, PresetKind::kMarkers}) {
      for (auto& preset : shipped_presets(k)) {
        if (preset.name == name_or_file) return check(std::move(preset));
        known += (known.empty() ? "" : ", ") + preset.name;
      }
    }
    throw InputError(input_error_message(
        clip_name, "",
        "unknown preset '" + std::string(name_or_file) + "' (shipped: " + known + "; or give a YAML file)"));
  }

  std::vector<LandmarkPreset> presets = shipped_presets(kind);
  if (presets.empty()) {
    throw InputError(input_error_message(
        clip_name, "",
        "no " + std::string(to_string(kind)) + " presets found (looked in $MIMIC_CONFIG_DIR and " +
            (core::data_dir() / "config").string() + "); pass --preset FILE"));
  }
  int best_usable = -1, best_any = 0;
  std::vector<PresetMatch> matches;
  for (std::size_t i = 0; i < presets.size(); ++i) {
    matches.push_back(match_preset(presets[i], clip));
    const auto& m = matches.back();
    if (m.usable() && (best_usable < 0 ||
                       m.resolved_count > matches[static_cast<std::size_t>(best_usable)].resolved_count)) {
      best_usable = static_cast<int>(i);
    }
    const auto& b = matches[static_cast<std::size_t>(best_any)];
    if (m.missing_required.size() < b.missing_required.size() ||
        (m.missing_required.size() == b.missing_required.size() && m.resolved_count > b.resolved_count)) {
      best_any = static_cast<int>(i);
    }
  }
  if (best_usable >= 0) {
    const auto i = static_cast<std::size_t>(best_usable);
    return with_evidence(SelectedPreset{std::move(presets[i]), std::move(matches[i]), {}, {}}, clip);
  }
  // No preset fits: the mapping found from the skeleton itself (skeleton_mapping.hpp).
  AutomaticMapping automatic = kind == PresetKind::kSkeleton ? map_skeleton(clip) : map_markers(clip);
  if (automatic.found) return std::move(automatic.selected);
  const auto& closest = presets[static_cast<std::size_t>(best_any)];
  const auto& closest_match = matches[static_cast<std::size_t>(best_any)];
  std::string diagnosis;
  if (closest_match.resolved_count == 0) {
    std::string names, needed;
    for (const auto& p : presets) names += (names.empty() ? "" : ", ") + p.name;
    for (Landmark l : kRequiredLandmarks) needed += (needed.empty() ? "" : ", ") + std::string(to_string(l));
    diagnosis = "none of the shipped presets (" + names + ") recognises any of its " + what +
                "; retargeting needs the landmarks " + needed;
  } else {
    diagnosis = "no shipped preset has the landmarks needed for retargeting. Closest '" + closest.name +
                "' lacks " + describe_missing(closest, closest_match);
  }
  throw InputError(input_error_message(
      clip_name, "",
      "unknown " + std::string(to_string(kind)) + ": " + diagnosis + ". The clip's " + what + ": " +
          clip_names(clip) + ". " + automatic.failure + ". Write a mapping (see config/" +
          (kind == PresetKind::kSkeleton ? "skeletons" : "markersets") + "/) and pass --preset FILE"));
}

}  // namespace mimic::retarget
